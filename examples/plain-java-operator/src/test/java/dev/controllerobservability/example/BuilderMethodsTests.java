package dev.controllerobservability.example;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Tags;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.ControllerObservability;
import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.catalog.InvalidMetricDefinitionException;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.operations.OperationDefinition;
import dev.controllerobservability.stability.StabilityLevel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What each method of {@code ControllerObservability.Builder} does, as
 * {@code docs/without-spring.md} describes it, read back from the scrape.
 */
class BuilderMethodsTests {

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private final ControllerObservability.Builder builder = ControllerObservability.builder(this.registry);

	@Test
	void withoutNamespaceOrOperationTagsOperationsAreControllerMetricsWithoutLabelsOfTheirOwn() {
		this.builder.build().operations().observe("apply", Tags.empty(), () -> {
		});
		assertThat(lines()).contains("controller_apply_duration_seconds_count{error=\"none\",result=\"success\"} 1");
	}

	@Test
	void namespaceAndOperationTagsNameAndLabelOperations() {
		this.builder.namespace("widgets")
			.operationTags("kind")
			.build()
			.operations()
			.observe("apply", Tags.of("kind", "ConfigMap"), () -> {
			});
		assertThat(lines()).contains(
				"widgets_apply_duration_seconds_count{error=\"none\",kind=\"ConfigMap\",result=\"success\"} 1",
				"widgets_apply_in_flight{kind=\"ConfigMap\"} 0.0");
	}

	@Test
	void operationGivesOneOperationASubsystemHelpAndBuckets() {
		this.builder.namespace("widgets")
			.operation("apply", new OperationDefinition("cache", "Time to apply a ConfigMap.", List.of(0.1, 1.0), null))
			.build()
			.operations()
			.observe("apply", Tags.empty(), () -> {
			});
		assertThat(lines()).contains("# HELP widgets_cache_apply_duration_seconds Time to apply a ConfigMap.");
		assertThat(lines().stream().filter((line) -> line.startsWith("widgets_cache_apply_duration_seconds_bucket")))
			.containsExactly(
					"widgets_cache_apply_duration_seconds_bucket{error=\"none\",result=\"success\",le=\"0.1\"} 1",
					"widgets_cache_apply_duration_seconds_bucket{error=\"none\",result=\"success\",le=\"1.0\"} 1",
					"widgets_cache_apply_duration_seconds_bucket{error=\"none\",result=\"success\",le=\"+Inf\"} 1");
	}

	@Test
	void metricDeclaresACatalogMetric() {
		this.builder.namespace("widgets")
			.metric(MetricDefinition.counter("configmaps_applied_total")
				.help("ConfigMaps applied.")
				.labels("kind")
				.build())
			.build()
			.metrics()
			.counter("configmaps_applied_total", "kind", "ConfigMap")
			.increment();
		assertThat(lines()).contains("# HELP widgets_configmaps_applied_total [ALPHA] ConfigMaps applied.",
				"widgets_configmaps_applied_total{kind=\"ConfigMap\"} 1.0");
	}

	@Test
	void commonTagsGoOnControllerMetricsOnly() {
		this.builder.namespace("widgets")
			.commonTags(Tags.of("cluster", "dev"))
			.build()
			.operations()
			.observe("apply", Tags.empty(), () -> {
			});
		this.registry.counter("jobs.done").increment();
		assertThat(lines()).contains(
				"widgets_apply_duration_seconds_count{cluster=\"dev\",error=\"none\",result=\"success\"} 1",
				"jobs_done_total 1.0");
	}

	@Test
	void durationBucketsAreEveryOperationsDefaultBuckets() {
		this.builder.namespace("widgets")
			.durationBuckets(List.of(0.5, 2.0))
			.build()
			.operations()
			.observe("apply", Tags.empty(), () -> {
			});
		assertThat(lines().stream().filter((line) -> line.startsWith("widgets_apply_duration_seconds_bucket")))
			.containsExactly("widgets_apply_duration_seconds_bucket{error=\"none\",result=\"success\",le=\"0.5\"} 1",
					"widgets_apply_duration_seconds_bucket{error=\"none\",result=\"success\",le=\"2.0\"} 1",
					"widgets_apply_duration_seconds_bucket{error=\"none\",result=\"success\",le=\"+Inf\"} 1");
	}

	@Test
	void disabledMetricsAreNeverRegistered() {
		ControllerObservability observability = this.builder.namespace("widgets")
			.metric(MetricDefinition.counter("configmaps_applied_total").help("ConfigMaps applied.").build())
			.disabledMetrics(List.of("widgets_configmaps_applied_total"))
			.build();
		observability.metrics().counter("configmaps_applied_total").increment();
		assertThat(observability.disabledMetrics()).containsExactly("widgets_configmaps_applied_total");
		assertThat(lines()).noneMatch((line) -> line.contains("widgets_configmaps_applied_total"));
	}

	@Test
	void versionHidesADeprecatedMetricOnceItsWindowHasPassed() {
		assertThat(exposesBetaMetricDeprecatedIn140("1.5.0")).isTrue();
		assertThat(exposesBetaMetricDeprecatedIn140("1.6.0")).isFalse();
		assertThat(exposesBetaMetricDeprecatedIn140(null)).isTrue();
	}

	private boolean exposesBetaMetricDeprecatedIn140(String version) {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		ControllerObservability.Builder builder = ControllerObservability.builder(registry)
			.namespace("widgets")
			.metric(MetricDefinition.counter("old_total")
				.help("Old.")
				.stability(StabilityLevel.BETA)
				.deprecatedVersion("1.4.0")
				.build());
		if (version != null) {
			builder.version(version);
		}
		builder.build().metrics().counter("old_total").increment();
		return registry.scrape().lines().anyMatch((line) -> line.startsWith("widgets_old_total "));
	}

	@Test
	void observationRegistryLetsItsOtherHandlersSeeEveryOperation() {
		ObservationRegistry observations = ObservationRegistry.create();
		AtomicInteger started = new AtomicInteger();
		observations.observationConfig().observationHandler(new ObservationHandler<>() {

			@Override
			public void onStart(Observation.Context context) {
				started.incrementAndGet();
			}

			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}

		});
		this.builder.namespace("widgets")
			.observationRegistry(observations)
			.build()
			.operations()
			.observe("apply", Tags.empty(), () -> {
			});
		assertThat(started).hasValue(1);
		assertThat(lines()).contains("widgets_apply_duration_seconds_count{error=\"none\",result=\"success\"} 1");
	}

	@Test
	void operationHistogramsRecordIntoPrometheusHistogramsWithoutMaxForAlphaOperations() {
		this.builder.namespace("widgets")
			.operationHistograms(this.registry.getPrometheusRegistry())
			.build()
			.operations()
			.observe("apply", Tags.empty(), () -> {
			});
		assertThat(lines()).contains("widgets_apply_duration_seconds_count{error=\"none\",result=\"success\"} 1")
			.noneMatch((line) -> line.startsWith("widgets_apply_duration_seconds_max"));
	}

	@Test
	void meterPrefixesGiveMetersOfYourOwnTheNamespaceAndCommonTags() {
		this.builder.namespace("widgets").commonTags(Tags.of("cluster", "dev")).meterPrefixes("cloud.api").build();
		this.registry.counter("cloud.api.calls").increment();
		this.registry.counter("jobs.done").increment();
		assertThat(lines()).contains("widgets_cloud_api_calls_total{cluster=\"dev\"} 1.0", "jobs_done_total 1.0");
	}

	@Test
	void labelAllowListRecordsOtherValuesAsUnexpected() {
		ControllerObservability observability = this.builder.namespace("widgets")
			.metric(MetricDefinition.counter("configmaps_applied_total").help("Applied.").labels("zone").build())
			.labelAllowList("widgets_configmaps_applied_total", "zone", "a")
			.build();
		observability.metrics().counter("configmaps_applied_total", "zone", "a").increment();
		observability.metrics().counter("configmaps_applied_total", "zone", "b").increment();
		assertThat(lines()).contains("widgets_configmaps_applied_total{zone=\"a\"} 1.0",
				"widgets_configmaps_applied_total{zone=\"unexpected\"} 1.0");
	}

	@Test
	void maxLabelValuesAndMaxLabelValueLengthBoundEachLabel() {
		ControllerObservability observability = this.builder.namespace("widgets")
			.metric(MetricDefinition.counter("configmaps_applied_total").help("Applied.").labels("zone").build())
			.maxLabelValues(1)
			.maxLabelValueLength(4)
			.build();
		observability.metrics().counter("configmaps_applied_total", "zone", "eu-west").increment();
		observability.metrics().counter("configmaps_applied_total", "zone", "us-east").increment();
		assertThat(lines()).contains("widgets_configmaps_applied_total{zone=\"eu-w\"} 1.0",
				"widgets_configmaps_applied_total{zone=\"unexpected\"} 1.0");
	}

	@Test
	void maxSeriesPerMetricSendsFurtherLabelSetsToTheOverflowSeries() {
		ControllerObservability observability = this.builder.namespace("widgets")
			.metric(MetricDefinition.counter("configmaps_applied_total").help("Applied.").labels("zone").build())
			.maxSeriesPerMetric(1)
			.build();
		observability.metrics().counter("configmaps_applied_total", "zone", "a").increment();
		observability.metrics().counter("configmaps_applied_total", "zone", "b").increment();
		assertThat(lines()).contains("widgets_configmaps_applied_total{zone=\"a\"} 1.0",
				"widgets_configmaps_applied_total{zone=\"overflow\"} 1.0");
	}

	@Test
	void maxOperationsLeavesFurtherUndeclaredOperationsUnrecorded() {
		ControllerObservability observability = this.builder.namespace("widgets").maxOperations(1).build();
		observability.operations().observe("apply", Tags.empty(), () -> {
		});
		AtomicInteger runs = new AtomicInteger();
		observability.operations().observe("delete", Tags.empty(), runs::incrementAndGet);
		assertThat(runs).hasValue(1);
		assertThat(lines()).contains("widgets_apply_duration_seconds_count{error=\"none\",result=\"success\"} 1")
			.noneMatch((line) -> line.startsWith("widgets_delete_"));
	}

	@Test
	void showHiddenMetricsForVersionShowsThePreviousMinorsHiddenMetricsAgain() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		ControllerObservability.builder(registry)
			.namespace("widgets")
			.metric(MetricDefinition.counter("old_total").help("Old.").deprecatedVersion("1.5.0").build())
			.version("1.6.0")
			.showHiddenMetricsForVersion("1.5")
			.build()
			.metrics()
			.counter("old_total")
			.increment();
		assertThat(registry.scrape().lines()).contains("widgets_old_total 1.0");
	}

	@Test
	void buildRefusesABadSettingNamingTheBuilderMethod() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> this.builder.operationTags("le").build())
			.withMessageStartingWith(
					"ControllerObservability.Builder.operationTags(…) element 0 = \"le\": 'le' is reserved");
		assertThat(this.registry.getMeters()).isEmpty();
	}

	@Test
	void buildRefusesAMetricDeclaredTwice() {
		MetricDefinition applied = MetricDefinition.counter("configmaps_applied_total")
			.help("ConfigMaps applied.")
			.build();
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> this.builder.metric(applied).metric(applied).build())
			.withMessageContaining("configmaps_applied_total")
			.withCauseInstanceOf(InvalidMetricDefinitionException.class);
	}

	@Test
	void buildRefusesSettingsThatContradictEachOther() {
		ControllerObservability.Builder clash = ControllerObservability.builder(this.registry)
			.namespace("widgets")
			.operation("apply", OperationDefinition.DEFAULT)
			.metric(MetricDefinition.histogram("apply_duration_seconds").help("Applies.").build());
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(clash::build)
			.withMessageStartingWith(
					"ControllerObservability.Builder.metric(MetricDefinition \"apply_duration_seconds\")"
							+ " = \"apply_duration_seconds\": widgets_apply_duration_seconds is the duration histogram of "
							+ "operation 'apply'");
		ControllerObservability.Builder series = ControllerObservability.builder(this.registry)
			.namespace("widgets")
			.operation("apply", OperationDefinition.DEFAULT)
			.disabledMetrics(List.of("widgets_apply_duration_seconds_bucket"));
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(series::build)
			.withMessageContaining("is a series of the histogram widgets_apply_duration_seconds")
			.withMessageEndingWith("Did you mean widgets_apply_duration_seconds?");
		assertThat(this.registry.getMeters()).isEmpty();
	}

	private List<String> lines() {
		return this.registry.scrape().lines().toList();
	}

}
