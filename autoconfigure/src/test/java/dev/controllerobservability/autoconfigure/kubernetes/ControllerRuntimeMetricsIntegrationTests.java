package dev.controllerobservability.autoconfigure.kubernetes;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.kubernetes.operator.OperatorObservability;
import dev.controllerobservability.lint.MetricsLinter;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Java Operator SDK operator, configured through {@link OperatorObservability},
 * reconciles custom resources on the fabric8 mock API server (CRUD mode) with every
 * outcome controller-runtime distinguishes, panics and terminal errors included; the
 * scrape then holds controller-runtime's series with exact values.
 */
class ControllerRuntimeMetricsIntegrationTests {

	private static final Map<String, String> WIDGET = Map.of("controller", "widget");

	private static final Map<String, String> QUEUE = Map.of("name", "widget", "controller", "widget");

	private final ApplicationContextRunner contextRunner = KubernetesContextRunner
		.with(PrometheusMetricsExportAutoConfiguration.class);

	private KubernetesMockServer server;

	@BeforeEach
	void startApiServer() {
		this.server = new KubernetesMockServer(new io.fabric8.mockwebserver.Context(), new MockWebServer(),
				new HashMap<>(), new LeaseGrantingDispatcher(), false);
		this.server.init();
	}

	@AfterEach
	void stopApiServer() {
		this.server.destroy();
	}

	@Test
	void recordsEveryReconcileOutcomeUnderControllerRuntimeNames() {
		this.contextRunner.withBean(KubernetesClient.class, () -> this.server.createClient()).run((context) -> {
			KubernetesClient client = context.getBean(KubernetesClient.class);
			PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
			Operator operator = new Operator(context.getBean(OperatorObservability.class)
				.andThen((overrider) -> overrider.withConcurrentReconciliationThreads(3)));
			operator.register(new WidgetReconciler(),
					(controller) -> controller.withRetry(new GenericRetry().setMaxAttempts(1).setInitialInterval(20)));
			operator.start();
			try {
				PrometheusScrape registered = scrape(registry);
				for (String result : List.of("success", "error", "requeue", "requeue_after")) {
					assertThat(registered.value("controller_runtime_reconcile_total", with(WIDGET, "result", result)))
						.as(result + " is pre-set to 0")
						.isEqualTo(0.0);
				}
				for (String counter : List.of("errors", "panics", "timeouts")) {
					assertThat(registered.value("controller_runtime_reconcile_" + counter + "_total", WIDGET))
						.as(counter + " is pre-set to 0")
						.isEqualTo(0.0);
				}
				assertThat(registered.value("controller_runtime_terminal_reconcile_errors_total", WIDGET))
					.isEqualTo(0.0);
				for (String outcome : List.of("success", "requeue-after", "requeue-once", "fail-once", "fail",
						"give-up", "panic-once")) {
					client.resource(Widget.named(outcome, outcome)).create();
				}
				await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
					PrometheusScrape scrape = scrape(registry);
					assertThat(scrape.value("controller_runtime_reconcile_total", with(WIDGET, "result", "success")))
						.isEqualTo(4.0);
					assertThat(scrape.value("controller_runtime_reconcile_total", with(WIDGET, "result", "error")))
						.isEqualTo(5.0);
					assertThat(scrape.value("controller_runtime_terminal_reconcile_errors_total", WIDGET))
						.isEqualTo(1.0);
					// Every reconcile ended, the requeues' too: stopping earlier would
					// lose some.
					assertThat(scrape.value("controller_runtime_reconcile_time_seconds_count", WIDGET)).isEqualTo(11.0);
					assertThat(scrape.value("workqueue_work_duration_seconds_count", QUEUE)).isEqualTo(11.0);
					assertThat(scrape.value("workqueue_queue_duration_seconds_count", QUEUE)).isEqualTo(11.0);
					assertThat(scrape.value("workqueue_adds_total", QUEUE)).isEqualTo(11.0);
					assertThat(scrape.value("workqueue_retries_total", QUEUE)).isEqualTo(5.0);
				});
			}
			finally {
				operator.stop();
			}
			PrometheusScrape scrape = scrape(registry);
			// success: success, and the second passes of requeue-once, fail-once and
			// panic-once
			assertThat(scrape.value("controller_runtime_reconcile_total", with(WIDGET, "result", "success")))
				.isEqualTo(4.0);
			// error: fail-once's, give-up's and panic-once's first pass, fail's two
			// passes
			assertThat(scrape.value("controller_runtime_reconcile_total", with(WIDGET, "result", "error")))
				.isEqualTo(5.0);
			assertThat(scrape.value("controller_runtime_reconcile_total", with(WIDGET, "result", "requeue")))
				.isEqualTo(1.0);
			assertThat(scrape.value("controller_runtime_reconcile_total", with(WIDGET, "result", "requeue_after")))
				.isEqualTo(1.0);
			assertThat(scrape.value("controller_runtime_reconcile_errors_total", WIDGET)).isEqualTo(5.0);
			// only give-up's error was marked as not to be retried; fail's exhausted
			// retries are not terminal
			assertThat(scrape.value("controller_runtime_terminal_reconcile_errors_total", WIDGET)).isEqualTo(1.0);
			// panic-once's NullPointerException, a Go panic's counterpart
			assertThat(scrape.value("controller_runtime_reconcile_panics_total", WIDGET)).isEqualTo(1.0);
			assertThat(scrape.value("controller_runtime_reconcile_timeouts_total", WIDGET)).isEqualTo(0.0);
			assertThat(scrape.value("controller_runtime_reconcile_time_seconds_count", WIDGET)).isEqualTo(11.0);
			assertThat(scrape.samples("controller_runtime_reconcile_time_seconds_bucket")).hasSize(41);
			assertThat(scrape.samples("controller_runtime_reconcile_time_seconds_max")).isEmpty();
			assertThat(scrape.value("controller_runtime_active_workers", WIDGET)).isEqualTo(0.0);
			assertThat(scrape.value("controller_runtime_max_concurrent_reconciles", WIDGET)).isEqualTo(3.0);
			// 7 creations, 3 retries after errors and 1 immediate requeue
			assertThat(scrape.value("workqueue_adds_total", QUEUE)).isEqualTo(11.0);
			// every delayed re-add: the retries after fail-once, fail and panic-once, and
			// both requeues
			assertThat(scrape.value("workqueue_retries_total", QUEUE)).isEqualTo(5.0);
			// every widget was created after the controller started, so none came from an
			// initial list
			assertThat(scrape.samples("workqueue_depth")).singleElement()
				.satisfies((depth) -> assertThat(depth.labels()).containsEntry("priority", "0"))
				.satisfies((depth) -> assertThat(depth.value()).isEqualTo(0.0));
			assertThat(scrape.value("workqueue_queue_duration_seconds_count", QUEUE)).isEqualTo(11.0);
			assertThat(scrape.value("workqueue_work_duration_seconds_count", QUEUE)).isEqualTo(11.0);
			assertThat(scrape.samples("workqueue_work_duration_seconds_bucket")).hasSize(13);
			assertThat(scrape.samples("workqueue_work_duration_seconds_max")).isEmpty();
			assertThat(scrape.value("workqueue_unfinished_work_seconds", QUEUE)).isEqualTo(0.0);
			assertThat(scrape.value("workqueue_longest_running_processor_seconds", QUEUE)).isEqualTo(0.0);
			// The operator's API calls went through the instrumented client.
			assertThat(scrape.samples("rest_client_requests_total")).isNotEmpty();
			assertThat(new MetricsLinter("karpenter", Set.of(), List.of()).lint(Exposition.parse(registry.scrape()))
				.controllerFindings()).isEmpty();
		});
	}

	@Test
	void countsResourcesFromTheInitialListAtLowPriority() {
		this.contextRunner.withBean(KubernetesClient.class, () -> this.server.createClient()).run((context) -> {
			KubernetesClient client = context.getBean(KubernetesClient.class);
			PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
			client.resource(Widget.named("existing", "success")).create();
			Operator operator = new Operator(context.getBean(OperatorObservability.class));
			operator.register(new WidgetReconciler());
			operator.start();
			try {
				await().atMost(Duration.ofSeconds(30))
					.untilAsserted(() -> assertThat(scrape(registry).value("controller_runtime_reconcile_total",
							with(WIDGET, "result", "success")))
						.isEqualTo(1.0));
			}
			finally {
				operator.stop();
			}
			PrometheusScrape scrape = scrape(registry);
			assertThat(scrape.value("workqueue_adds_total", QUEUE)).isEqualTo(1.0);
			// The widget existed before the operator started: its add came from the
			// watch's initial list.
			assertThat(scrape.samples("workqueue_depth")).extracting((depth) -> depth.labels().get("priority"))
				.containsExactlyInAnyOrder("0", "-100");
			assertThat(scrape.value("workqueue_depth", with(QUEUE, "priority", "-100"))).isEqualTo(0.0);
		});
	}

	@Test
	void reportsTheOperatorsLeaderElectionStatus() {
		this.contextRunner.withBean(KubernetesClient.class, () -> this.server.createClient()).run((context) -> {
			OperatorObservability observability = context.getBean(OperatorObservability.class);
			List<String> applicationCallbacks = new CopyOnWriteArrayList<>();
			LeaderElectionConfiguration election = LeaderElectionConfigurationBuilder
				.aLeaderElectionConfiguration("widget-operator")
				.withLeaseNamespace("default")
				.withIdentity("replica-1")
				.withExitOnStopLeading(false)
				.withLeaderCallbacks(new LeaderCallbacks(() -> applicationCallbacks.add("start"),
						() -> applicationCallbacks.add("stop"), (leader) -> applicationCallbacks.add("new " + leader)))
				.build();
			PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
			Map<String, String> lease = Map.of("name", "widget-operator");
			Operator operator = new Operator(observability
				.andThen((overrider) -> overrider.withLeaderElectionConfiguration(observability.observed(election))));
			assertThat(scrape(registry).value("leader_election_master_status", lease)).isEqualTo(0.0);
			operator.register(new WidgetReconciler());
			operator.start();
			try {
				await().atMost(Duration.ofSeconds(30))
					.untilAsserted(() -> assertThat(scrape(registry).value("leader_election_master_status", lease))
						.isEqualTo(1.0));
				assertThat(applicationCallbacks).contains("start", "new replica-1");
			}
			finally {
				operator.stop();
			}
		});
	}

	/**
	 * The API server in CRUD mode, answering the permission check the SDK makes before it
	 * runs for leader: this identity may do anything with leases.
	 */
	static class LeaseGrantingDispatcher extends KubernetesCrudDispatcher {

		LeaseGrantingDispatcher() {
			super(List.of(CustomResourceDefinitionContext.fromCustomResourceType(Widget.class)));
		}

		@Override
		public MockResponse handleCreate(RecordedRequest request) {
			if (!request.getPath().endsWith("/selfsubjectrulesreviews")) {
				return super.handleCreate(request);
			}
			SelfSubjectRulesReview review = new SelfSubjectRulesReviewBuilder().withNewStatus()
				.addNewResourceRule()
				.withApiGroups("coordination.k8s.io")
				.withResources("leases")
				.withVerbs("*")
				.endResourceRule()
				.endStatus()
				.build();
			return new MockResponse().setResponseCode(201).setBody(Serialization.asJson(review));
		}

	}

	private static Map<String, String> with(Map<String, String> labels, String key, String value) {
		Map<String, String> all = new HashMap<>(labels);
		all.put(key, value);
		return all;
	}

	private static PrometheusScrape scrape(PrometheusMeterRegistry registry) {
		return PrometheusScrape.parse(registry.scrape());
	}

	/**
	 * Ends each reconciliation as the widget's spec says.
	 */
	@ControllerConfiguration(name = "widget")
	static class WidgetReconciler implements Reconciler<Widget> {

		@Override
		public ErrorStatusUpdateControl<Widget> updateErrorStatus(Widget widget, Context<Widget> context,
				Exception ex) {
			return "give-up".equals(widget.getSpec().getOutcome())
					? ErrorStatusUpdateControl.<Widget>noStatusUpdate().withNoRetry()
					: ErrorStatusUpdateControl.defaultErrorProcessing();
		}

		private final Set<String> seen = ConcurrentHashMap.newKeySet();

		@Override
		public UpdateControl<Widget> reconcile(Widget widget, Context<Widget> context) {
			String outcome = widget.getSpec().getOutcome();
			boolean first = this.seen.add(widget.getMetadata().getName());
			return switch (outcome) {
				case "requeue-after" -> UpdateControl.<Widget>noUpdate().rescheduleAfter(Duration.ofHours(1));
				case "requeue-once" ->
					first ? UpdateControl.<Widget>noUpdate().rescheduleAfter(0) : UpdateControl.noUpdate();
				case "fail-once" -> {
					if (first) {
						throw new IllegalStateException("transient failure");
					}
					yield UpdateControl.noUpdate();
				}
				case "fail" -> throw new IllegalStateException("permanent failure");
				case "give-up" -> throw new IllegalArgumentException("invalid spec");
				case "panic-once" -> {
					if (first) {
						throw new NullPointerException("a bug");
					}
					yield UpdateControl.noUpdate();
				}
				default -> UpdateControl.noUpdate();
			};
		}

	}

}
