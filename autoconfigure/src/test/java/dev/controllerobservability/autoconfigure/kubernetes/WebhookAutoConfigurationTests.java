package dev.controllerobservability.autoconfigure.kubernetes;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.autoconfigure.ControllerObservabilityFailureAnalysis;
import dev.controllerobservability.kubernetes.webhook.WebhookMetrics;
import dev.controllerobservability.kubernetes.webhook.WebhookType;
import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.RuleSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Which webhook beans each kind of application gets, backing off, and the refusal of
 * webhook paths that are not paths or are declared twice.
 */
class WebhookAutoConfigurationTests {

	private static final String PATHS = "controller.observability.kubernetes.webhooks.";

	@Test
	void recordsDeclaredWebhooksThroughAServletFilterInAServletApplication() {
		KubernetesContextRunner.servlet()
			.withPropertyValues(PATHS + "admission-paths=/validate,/mutate", PATHS + "conversion-paths=/convert")
			.run((context) -> {
				assertThat(context).hasSingleBean(WebhookServletFilter.class).doesNotHaveBean(WebhookWebFilter.class);
				assertThat(context.getBean(WebhookMetrics.class).webhooks()).containsOnlyKeys("/validate", "/mutate",
						"/convert");
				assertThat(context.getBean(WebhookMetrics.class).webhook("/convert").orElseThrow().type())
					.isEqualTo(WebhookType.CONVERSION);
			});
	}

	@Test
	void recordsDeclaredWebhooksThroughAWebFilterInAReactiveApplication() {
		KubernetesContextRunner.reactive().withPropertyValues(PATHS + "admission-paths=/validate").run((context) -> {
			assertThat(context).hasSingleBean(WebhookWebFilter.class).doesNotHaveBean(WebhookServletFilter.class);
			assertThat(context.getBean(WebhookMetrics.class).webhooks()).containsOnlyKeys("/validate");
		});
	}

	@Test
	void definesNoWebhookMetricsOutsideAWebApplication() {
		KubernetesContextRunner.with(SimpleMetricsExportAutoConfiguration.class)
			.withPropertyValues(PATHS + "admission-paths=/validate")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(WebhookMetrics.class));
	}

	@Test
	void backsOffWhenTheUserDefinesWebhookMetrics() {
		KubernetesContextRunner.servlet()
			.withUserConfiguration(UserWebhookMetrics.class)
			.withPropertyValues(PATHS + "admission-paths=/validate")
			.run((context) -> assertThat(context.getBean(WebhookMetrics.class).webhooks()).containsOnlyKeys("/own"));
	}

	@Test
	void refusesAPathWithoutLeadingSlashNamingThePropertyTheValueAndTheFix() {
		KubernetesContextRunner.servlet()
			.withPropertyValues(PATHS + "admission-paths=/validate,mutate")
			.run((context) -> {
				FailureAnalysis analysis = ControllerObservabilityFailureAnalysis.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("Property: " + PATHS + "admission-paths[1]\n",
						"Value: \"mutate\"", "a webhook path starts with '/'");
				assertThat(analysis.getAction()).contains("Write it as '/mutate'");
			});
	}

	@Test
	void refusesAPathDeclaredAsAdmissionAndAsConversion() {
		KubernetesContextRunner.reactive()
			.withPropertyValues(PATHS + "admission-paths=/hooks", PATHS + "conversion-paths=/hooks")
			.run((context) -> {
				FailureAnalysis analysis = ControllerObservabilityFailureAnalysis.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("Property: " + PATHS + "conversion-paths[0]\n",
						"the path is already declared as an admission webhook path");
				assertThat(analysis.getAction()).contains("Declare each webhook path once");
			});
	}

	@Test
	void switchesTheWebhookAlertsOnWhenPathsAreDeclared() {
		KubernetesContextRunner.servlet()
			.withPropertyValues(PATHS + "conversion-paths=/convert", PATHS + "alerts.panics.severity=critical")
			.run((context) -> assertThat(context.getBean(RuleSet.class).alerts())
				.extracting(AlertRule::name, AlertRule::forDuration, AlertRule::severity)
				.containsExactly(tuple("WebhookErrorRatioHigh", "15m", "warning"),
						tuple("WebhookLatencyHigh", "15m", "warning"), tuple("WebhookPanics", "0m", "critical")));
	}

	@Test
	void leavesTheWebhookAlertsOffWithoutDeclaredPathsUnlessEnabled() {
		KubernetesContextRunner.servlet()
			.run((context) -> assertThat(context.getBean(RuleSet.class).alerts()).isEmpty());
		KubernetesContextRunner.servlet()
			.withPropertyValues(PATHS + "alerts.enabled=true")
			.run((context) -> assertThat(context.getBean(RuleSet.class).alerts()).extracting(AlertRule::name)
				.containsExactly("WebhookErrorRatioHigh", "WebhookLatencyHigh", "WebhookPanics"));
		KubernetesContextRunner.servlet()
			.withPropertyValues(PATHS + "admission-paths=/validate", PATHS + "alerts.enabled=false")
			.run((context) -> assertThat(context.getBean(RuleSet.class).alerts()).isEmpty());
	}

	@Test
	void switchesTheLeaderElectionAlertsOnOnlyWhenEnabled() {
		String alerts = "controller.observability.kubernetes.leader-election.alerts.";
		KubernetesContextRunner.servlet()
			.run((context) -> assertThat(context.getBean(RuleSet.class).alerts()).isEmpty());
		KubernetesContextRunner.servlet()
			.withPropertyValues(alerts + "enabled=true", alerts + "no-leader.severity=critical")
			.run((context) -> assertThat(context.getBean(RuleSet.class).alerts())
				.extracting(AlertRule::name, AlertRule::forDuration, AlertRule::severity)
				.containsExactly(tuple("LeaderElectionNoLeader", "5m", "critical"),
						tuple("LeaderElectionReconcilingWithoutLease", "5m", "warning")));
		KubernetesContextRunner.servlet()
			.withPropertyValues(alerts + "enabled=true",
					"controller.observability.disabled-metrics=controller_runtime_reconcile_total")
			.run((context) -> assertThat(context.getBean(RuleSet.class).alerts()).extracting(AlertRule::name)
				.containsExactly("LeaderElectionNoLeader"));
	}

	@Test
	void leavesOutTheAlertsOfDisabledWebhookFamilies() {
		KubernetesContextRunner.servlet()
			.withPropertyValues(PATHS + "admission-paths=/validate",
					"controller.observability.disabled-metrics=controller_runtime_webhook_latency_seconds,"
							+ "controller_runtime_conversion_webhook_panics_total")
			.run((context) -> assertThat(context).hasNotFailed()
				.getBean(RuleSet.class)
				.extracting(RuleSet::alerts)
				.asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.list(AlertRule.class))
				.extracting(AlertRule::name)
				.containsExactly("WebhookErrorRatioHigh"));
	}

	@Test
	void refusesAnAlertForThatIsNoDuration() {
		KubernetesContextRunner.servlet()
			.withPropertyValues(PATHS + "admission-paths=/validate", PATHS + "alerts.latency.for=ten minutes")
			.run((context) -> {
				FailureAnalysis analysis = ControllerObservabilityFailureAnalysis.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("Property: " + PATHS + "alerts.latency.for\n");
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class UserWebhookMetrics {

		@Bean
		WebhookMetrics userWebhookMetrics() {
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			return WebhookMetrics
				.builder(registry, new PrometheusRegistry(),
						new RecordingFailures(registry, "own", java.time.Duration.ofMinutes(1)))
				.admission("/own")
				.build();
		}

	}

}
