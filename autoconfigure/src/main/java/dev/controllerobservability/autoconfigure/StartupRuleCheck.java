package dev.controllerobservability.autoconfigure;

import java.util.Set;
import java.util.TreeSet;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.PromQl;
import dev.controllerobservability.rules.RecordingRule;
import dev.controllerobservability.rules.RuleSet;

/**
 * Once the application is ready, checks that every metric a rule reads exists: exposed,
 * declared in the catalog, an operation's, or another recording rule. A typo is caught at
 * start-up, not when the alert should have fired.
 */
class StartupRuleCheck implements ApplicationListener<ApplicationReadyEvent> {

	private final RuleSet rules;

	private final LiveMetrics liveMetrics;

	StartupRuleCheck(RuleSet rules, LiveMetrics liveMetrics) {
		this.rules = rules;
		this.liveMetrics = liveMetrics;
	}

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		Set<String> known = new TreeSet<>();
		this.liveMetrics.exposition().families().forEach((family) -> addSampleNames(known, family));
		this.liveMetrics.declaredFamilies().forEach((family) -> addSampleNames(known, family));
		this.rules.recordingRules().forEach((rule) -> known.add(rule.name()));
		for (RecordingRule rule : this.rules.recordingRules()) {
			check(known, "recording-rules[" + rule.name() + "].expr", rule.expr());
		}
		for (AlertRule alert : this.rules.alerts()) {
			check(known, "alerts." + alert.name() + ".expr", alert.expr());
		}
	}

	private static void addSampleNames(Set<String> known, ExposedFamily family) {
		known.add(family.name());
		if (family.type().equals("histogram") || family.type().equals("summary")) {
			known.add(family.name() + "_count");
			known.add(family.name() + "_sum");
			known.add(family.name() + "_bucket");
		}
	}

	private static void check(Set<String> known, String property, String expr) {
		for (String metric : PromQl.metricNames(expr)) {
			if (!known.contains(metric)) {
				String closest = closest(metric, known);
				throw new InvalidObservabilityPropertyException(ControllerObservabilityProperties.PREFIX + "." + property,
						expr, "the expression reads " + metric + ", which the application neither exposes nor declares",
						((closest != null) ? "Did you mean " + closest + "? " : "")
								+ "Fix the metric name; to name an operation's metrics before its first call, list the "
								+ "operation under controller.observability.operations.definitions");
			}
		}
	}

	private static String closest(String metric, Set<String> known) {
		String best = null;
		int bestDistance = Math.max(3, metric.length() / 4);
		for (String candidate : known) {
			int distance = UnknownObservabilityPropertyFailureAnalyzer.distance(metric, candidate);
			if (distance < bestDistance) {
				best = candidate;
				bestDistance = distance;
			}
		}
		return best;
	}

}
