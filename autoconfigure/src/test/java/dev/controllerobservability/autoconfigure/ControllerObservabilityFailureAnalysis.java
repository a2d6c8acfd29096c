package dev.controllerobservability.autoconfigure;

import java.util.List;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;

/**
 * The starter's failure analyzers, as its {@code META-INF/spring.factories} registers
 * them and in the order Spring Boot applies them, for tests that check the analysis of a
 * failed start.
 */
public final class ControllerObservabilityFailureAnalysis {

	private static final List<FailureAnalyzer> ANALYZERS = SpringFactoriesLoader.forDefaultResourceLocation()
		.load(FailureAnalyzer.class, ArgumentResolver.of(Environment.class, null),
				// Spring Boot's own analyzers need a bean factory; only the starter's
				// count.
				FailureHandler.handleMessage((message, failure) -> {
				}))
		.stream()
		.filter((analyzer) -> analyzer.getClass().getPackageName().startsWith("dev.controllerobservability."))
		.toList();

	private ControllerObservabilityFailureAnalysis() {
	}

	public static FailureAnalysis analyze(Throwable failure) {
		for (FailureAnalyzer analyzer : ANALYZERS) {
			FailureAnalysis analysis = analyzer.analyze(failure);
			if (analysis != null) {
				return analysis;
			}
		}
		return null;
	}

}
