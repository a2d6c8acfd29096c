package dev.controllerobservability.example;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import dev.controllerobservability.ControllerObservability;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.docs.MetricsReference;
import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.kubernetes.client.KubernetesClientMetrics;
import dev.controllerobservability.kubernetes.leader.LeaderElectionMetrics;
import dev.controllerobservability.kubernetes.operator.ControllerRuntimeMetrics;
import dev.controllerobservability.kubernetes.operator.OperatorObservability;
import dev.controllerobservability.kubernetes.process.StandardProcessMetrics;
import dev.controllerobservability.lint.LintFinding;
import dev.controllerobservability.lint.LintReport;
import dev.controllerobservability.lint.MetricsLinter;
import dev.controllerobservability.scrape.ScrapeHandler;
import dev.controllerobservability.scrape.SharedScrape;

/**
 * A Java Operator SDK operator with a {@code main()} and no Spring, observed by
 * Controller Observability: it reconciles ConfigMaps on the fabric8 mock API server while
 * it leads the election on the lease {@value #LEASE}, and serves its metrics at
 * {@code /metrics}, its lint findings at {@code /lint} and its metrics reference at
 * {@code /reference}.
 */
public final class PlainJavaOperator implements AutoCloseable {

	/** The namespace of the controller's own metrics. */
	static final String NAMESPACE = "widgets";

	/** The lease the operator's replicas elect their leader with. */
	static final String LEASE = "plain-java-operator";

	/** What {@code /lint} answers when the linter finds nothing. */
	static final String NO_FINDINGS = "No findings.";

	/** Where the lease and the example's ConfigMap live. */
	static final String KUBERNETES_NAMESPACE = "default";

	private final PrometheusMeterRegistry registry;

	private final ControllerObservability observability;

	private final SharedScrape scrape;

	private final KubernetesClient client;

	private final Operator operator;

	private final MetricsLinter linter = new MetricsLinter(NAMESPACE, Set.of(), List.of());

	private PlainJavaOperator(Config apiServer) {
		this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		this.observability = ControllerObservability.builder(this.registry)
			.namespace(NAMESPACE)
			.operationTags("kind")
			.metric(MetricDefinition.counter(ConfigMapReconciler.APPLIED)
				.help("ConfigMaps applied.")
				.labels("kind")
				.build())
			.metric(MetricDefinition.gauge(ConfigMapReconciler.KEYS)
				.help("Keys of a ConfigMap.")
				.perObjectWithKind()
				.build())
			.build();
		StandardProcessMetrics.addTo(this.registry, this.registry.getPrometheusRegistry());
		this.scrape = SharedScrape.builder(this.registry.getPrometheusRegistry(), this.observability.scrapeErrors())
			.maxSize(64L * 1024 * 1024)
			.build();
		KubernetesClientMetrics clientMetrics = new KubernetesClientMetrics(this.registry,
				this.observability.failures());
		this.client = clientMetrics.instrument(new KubernetesClientBuilder().withConfig(apiServer)).build();
		// Given the catalog, it forgets deleted ConfigMaps.
		ControllerRuntimeMetrics runtimeMetrics = ControllerRuntimeMetrics
			.builder(this.registry, this.registry.getPrometheusRegistry(), this.observability.failures())
			.disabledMetrics(this.observability.disabledMetrics())
			.objects(this.observability.metrics())
			.build();
		OperatorObservability operatorObservability = new OperatorObservability(runtimeMetrics, () -> this.client,
				new LeaderElectionMetrics(this.registry));
		LeaderElectionConfiguration election = operatorObservability
			.observed(LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(LEASE)
				.withLeaseNamespace(KUBERNETES_NAMESPACE)
				.withExitOnStopLeading(false)
				.build());
		this.operator = new Operator(
				operatorObservability.andThen((overrider) -> overrider.withLeaderElectionConfiguration(election)));
		this.operator.register(new ConfigMapReconciler(this.observability.operations(), this.observability.metrics()));
	}

	/**
	 * Starts the operator on an API server.
	 * @param apiServer the API server's client configuration
	 * @return the running operator; {@link #close()} stops it
	 */
	public static PlainJavaOperator start(Config apiServer) {
		PlainJavaOperator operator = new PlainJavaOperator(apiServer);
		try {
			operator.operator.start();
		}
		catch (RuntimeException ex) {
			operator.client.close();
			throw ex;
		}
		return operator;
	}

	/**
	 * The Prometheus text the registry exposes.
	 * @return the scrape
	 */
	public String scrape() {
		return this.registry.scrape();
	}

	/**
	 * The scrape {@code /metrics} serves: shared by the requests that arrive together,
	 * refused past 64 MB.
	 * @return the shared scrape
	 */
	public SharedScrape sharedScrape() {
		return this.scrape;
	}

	/**
	 * Lints the scrape and the declared metrics without series yet.
	 * @return the findings
	 */
	public LintReport lint() {
		return this.linter.lint(Exposition.parse(scrape()), this.observability.metrics().declaredFamilies(List.of()),
				this.observability.metrics().objectLabels());
	}

	/**
	 * The metrics reference of everything the scrape holds and the catalog declares.
	 * @return the reference
	 */
	public MetricsReference reference() {
		return MetricsReference.of(Exposition.parse(scrape()), this.observability.metrics().declaredFamilies(List.of()),
				this.linter::isFramework);
	}

	@Override
	public void close() {
		this.operator.stop();
		this.client.close();
	}

	/**
	 * Starts the mock API server with a ConfigMap to reconcile, the operator on it, and
	 * the HTTP server; runs until the JVM stops.
	 * @param args the HTTP port, 8080 when none is given
	 * @throws IOException if the port cannot be bound
	 */
	public static void main(String[] args) throws IOException {
		Example example = Example.start((args.length > 0) ? Integer.parseInt(args[0]) : 8080);
		Runtime.getRuntime().addShutdownHook(new Thread(example::close));
		System.out.println("Metrics at http://localhost:" + example.port() + "/metrics, lint findings at /lint, "
				+ "the metrics reference at /reference");
	}

	/**
	 * Everything {@link #main(String[])} runs: the mock API server, the operator and the
	 * HTTP server.
	 *
	 * @param apiServer the mock API server
	 * @param operator the operator
	 * @param http the HTTP server
	 */
	record Example(KubernetesMockServer apiServer, PlainJavaOperator operator,
			MetricsServer http) implements AutoCloseable {

		static Example start(int port) throws IOException {
			KubernetesMockServer apiServer = MockApiServer.start();
			Config config;
			try (KubernetesClient client = apiServer.createClient()) {
				client
					.resource(new ConfigMapBuilder().withNewMetadata()
						.withName("settings")
						.withNamespace(KUBERNETES_NAMESPACE)
						.endMetadata()
						.build())
					.create();
				config = client.getConfiguration();
			}
			PlainJavaOperator operator = PlainJavaOperator.start(config);
			MetricsServer http = MetricsServer.start(port, ScrapeHandler.of(operator.sharedScrape()),
					() -> lintText(operator.lint()),
					() -> operator.reference().toMarkdown("Plain Java operator metrics"));
			return new Example(apiServer, operator, http);
		}

		private static String lintText(LintReport report) {
			return report.findings().isEmpty() ? NO_FINDINGS
					: report.findings().stream().map(LintFinding::toString).collect(Collectors.joining("\n"));
		}

		int port() {
			return this.http.port();
		}

		@Override
		public void close() {
			this.http.close();
			this.operator.close();
			this.apiServer.destroy();
		}

	}

}
