package dev.controllerobservability.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationPredicate;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import reactor.core.publisher.Mono;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.info.ProjectInfoAutoConfiguration;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.info.BuildProperties;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsProperties;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.catalog.InvalidMetricDefinitionException;
import dev.controllerobservability.autoconfigure.strictness.InvalidObservabilityPropertyException;
import dev.controllerobservability.internal.metrics.ClaimedFamilies;
import dev.controllerobservability.internal.metrics.NamingPolicy;
import dev.controllerobservability.internal.metrics.ControllerMeterFilter;
import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.scrape.ScrapeErrors;
import dev.controllerobservability.operations.ReactiveOperations;
import dev.controllerobservability.internal.operations.OperationDurations;
import dev.controllerobservability.internal.operations.OperationRecorder;
import dev.controllerobservability.internal.settings.SettingNames;
import dev.controllerobservability.internal.wiring.ObservabilityParts;
import dev.controllerobservability.autoconfigure.strictness.ConditionalOnObservabilitySwitch;

/**
 * Auto-configuration of Controller Observability: the shared
 * {@link ControllerMeterFilter}, the declarative metric catalog recorded through
 * {@link ControllerMetrics}, the cardinality limits, and operation timing through
 * {@link ControllerOperations} and its meter handler. Rules and lint, the actuator
 * endpoints and the {@link dev.controllerobservability.operations.ObservedOperation}
 * aspect have auto-configurations of their own. Turned off with
 * {@code controller.observability.enabled=false}.
 */
@AutoConfiguration(after = { MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
		ObservationAutoConfiguration.class, ProjectInfoAutoConfiguration.class })
@ConditionalOnClass({ MeterRegistry.class, ObservationRegistry.class })
@ConditionalOnBean({ MeterRegistry.class, ObservationRegistry.class })
@ConditionalOnObservabilitySwitch(ControllerObservabilityProperties.PREFIX + ".enabled")
@EnableConfigurationProperties(ControllerObservabilityProperties.class)
public final class ControllerObservabilityAutoConfiguration {

	/**
	 * Order of {@link ControllerMeterFilter}: before Spring Boot's
	 * {@code PropertiesMeterFilter} ({@code @Order(0)}), so that
	 * {@code management.metrics.*} sees namespaced names and its distribution settings
	 * win over the bucket defaults.
	 */
	public static final int METER_FILTER_ORDER = -100;

	/**
	 * Order of {@link OperationRecorder}: ahead of Micrometer's
	 * {@code DefaultMeterObservationHandler}, which it replaces for operation contexts.
	 */
	public static final int OBSERVATION_HANDLER_ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

	@Bean
	@ConfigurationPropertiesBinding
	static OperationDefinitionConverter controllerOperationDefinitionConverter() {
		return new OperationDefinitionConverter();
	}

	@Bean
	@ConditionalOnMissingBean
	ControllerObservabilitySettings controllerObservabilitySettings(ControllerObservabilityProperties properties,
			Environment environment, ObjectProvider<BuildProperties> buildProperties) {
		BuildProperties build = buildProperties.getIfAvailable();
		return ControllerObservabilitySettings.resolve(properties, environment,
				(build != null) ? build.getVersion() : null);
	}

	@Bean
	@ConditionalOnMissingBean
	NamingPolicy controllerNamingPolicy(ControllerObservabilitySettings settings,
			ObjectProvider<MetricsProperties> metricsProperties) {
		MetricsProperties metrics = metricsProperties.getIfAvailable();
		return ObservabilityParts.naming(settings.core(), (metrics != null) ? metrics.getTags() : Map.of());
	}

	@Bean
	@Order(METER_FILTER_ORDER)
	@ConditionalOnMissingBean
	ControllerMeterFilter controllerMeterFilter(NamingPolicy naming, ClaimedFamilies claimed) {
		return new ControllerMeterFilter(naming, claimed);
	}

	@Bean
	@ConditionalOnMissingBean
	ClaimedFamilies controllerClaimedFamilies() {
		return new ClaimedFamilies(SettingNames.PROPERTIES);
	}

	@Bean
	@ConditionalOnMissingBean
	CardinalityLimiter controllerCardinalityLimiter(MeterRegistry meterRegistry,
			ControllerObservabilitySettings settings) {
		return ObservabilityParts.limiter(meterRegistry, settings.core());
	}

	@Bean
	@ConditionalOnMissingBean
	MetricCatalog controllerMetricCatalog(ControllerObservabilitySettings settings,
			ObjectProvider<MetricDefinition> definitions) {
		return MetricCatalogFactory.create(settings.core().namespace(), settings.core().metrics(),
				definitions.orderedStream().toList());
	}

	@Bean
	@ConditionalOnMissingBean
	ControllerMetrics controllerMetrics(MeterRegistry meterRegistry, MetricCatalog catalog,
			ControllerObservabilitySettings settings, CardinalityLimiter limiter, RecordingFailures failures,
			NamingPolicy naming, ClaimedFamilies claimed) {
		claimed.reportTo(failures);
		claimed.seen(meterRegistry.getMeters());
		try {
			return ObservabilityParts.metrics(meterRegistry, catalog, settings.core(), limiter, failures, naming,
					claimed);
		}
		catch (InvalidMetricDefinitionException ex) {
			// A histogram the registry cannot bucket exactly.
			throw MetricCatalogFactory.invalid(ex,
					settings.core().metrics().stream().map(MetricDefinition::name).collect(Collectors.toSet()));
		}
		catch (InvalidSettingException ex) {
			// The default buckets, which such a histogram takes.
			throw InvalidObservabilityPropertyException.of(ex);
		}
	}

	@Bean
	@ConditionalOnMissingBean
	RecordingFailures controllerRecordingFailures(MeterRegistry meterRegistry,
			ControllerObservabilitySettings settings) {
		return ObservabilityParts.failures(meterRegistry, settings.core());
	}

	@Bean
	@ConditionalOnMissingBean
	ScrapeErrors controllerScrapeErrors(MeterRegistry meterRegistry, ControllerObservabilitySettings settings) {
		return ObservabilityParts.scrapeErrors(meterRegistry, settings.core());
	}

	@Bean
	@Order(OBSERVATION_HANDLER_ORDER)
	@ConditionalOnMissingBean
	OperationRecorder operationRecorder(MeterRegistry meterRegistry, RecordingFailures failures,
			ControllerObservabilitySettings settings, CardinalityLimiter limiter, NamingPolicy naming,
			ClaimedFamilies claimed, BeanFactory beanFactory) {
		claimed.reportTo(failures);
		claimed.seen(meterRegistry.getMeters());
		OperationDurations durations = (settings.backend() == OperationsProperties.Backend.PROMETHEUS)
				? PrometheusOperationDurations.create(beanFactory, meterRegistry, naming, claimed)
				: OperationDurations.micrometer(meterRegistry);
		return new OperationRecorder(meterRegistry, durations, failures, limiter);
	}

	@Bean
	@ConditionalOnMissingBean
	ControllerOperations controllerOperations(ObservationRegistry observationRegistry, RecordingFailures failures,
			ControllerObservabilitySettings settings, CardinalityLimiter limiter,
			ObjectProvider<ObservationHandler<?>> handlers, ObjectProvider<ObservationPredicate> predicates) {
		List<ObservationHandler<?>> all = handlers.orderedStream().toList();
		List<OperationRecorder> ours = all.stream()
			.filter(OperationRecorder.class::isInstance)
			.map(OperationRecorder.class::cast)
			.toList();
		OperationRecorder handler = (ours.size() == 1) ? ours.get(0) : null;
		// Only meter handlers (ours first, Boot's default behind it) would see an
		// operation's observation: recording straight into our meters is the same, minus
		// the observation's cost. Tracing or any other handler keeps the observation.
		boolean direct = settings.directRecording() && all.stream().allMatch(MeterObservationHandler.class::isInstance);
		return ObservabilityParts.operations(observationRegistry, failures, settings.core(), limiter, handler,
				direct ? predicates.orderedStream().toList() : null);
	}

	@Bean
	ConfigurationReferences controllerConfigurationReferences(ControllerObservabilitySettings settings,
			MetricCatalog catalog, MeterRegistry meterRegistry, ObjectProvider<ControllerMeterFilter> meterFilter,
			ObjectProvider<DirectPrometheusFamilies> directFamilies) {
		ConfigurationReferences references = new ConfigurationReferences(settings, catalog, meterRegistry,
				meterFilter.getIfUnique(), directFamilies);
		references.check();
		return references;
	}

	/** {@link ReactiveOperations} where the application has Reactor. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Mono.class)
	static class ReactiveOperationsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ReactiveOperations reactiveOperations(ControllerOperations operations) {
			return ReactiveOperations.of(operations);
		}

	}

}
