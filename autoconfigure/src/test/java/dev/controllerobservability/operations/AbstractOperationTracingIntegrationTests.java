package dev.controllerobservability.operations;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.micrometer.tracing.test.autoconfigure.AutoConfigureTracing;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.support.PropertiesLoaderUtils;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.controllerobservability.test.PrometheusScrape;
import dev.controllerobservability.test.PrometheusScrape.Sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What a tracing bridge makes of operations, whichever bridge it is: one span per call
 * named after the operation and tagged with its labels and {@code result}, an error and
 * one exception only when the call failed, the HTTP request's span as parent, the span as
 * exemplar on the duration histogram, and the same series as without tracing.
 * <p>
 * Subclasses run with one bridge on the class path (a surefire execution of its own, see
 * the module's pom), import where its finished spans go and read them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		classes = AbstractOperationTracingIntegrationTests.TracedApplication.class)
@TestPropertySource(locations = "classpath:" + AbstractOperationTracingIntegrationTests.PROPERTIES)
@AutoConfigureMetrics
@AutoConfigureTracing
abstract class AbstractOperationTracingIntegrationTests {

	/**
	 * The application's settings, shared by the traced test and the untraced comparison.
	 */
	static final String PROPERTIES = "dev/controllerobservability/operations/operation-tracing.properties";

	private static final String PROVISIONER = "provisioner";

	private static final String BIND = "karpenter_allocation_controller_bind_duration_seconds";

	private static final List<String> OPERATION_FAMILIES = List.of(BIND, "karpenter_launch_duration_seconds",
			"karpenter_apply_packing_duration_seconds");

	private static final String OPENMETRICS = "application/openmetrics-text;version=1.0.0;charset=utf-8";

	@LocalServerPort
	private int port;

	@Autowired
	private ControllerOperations operations;

	@Autowired
	private Packer packer;

	@Autowired
	private Tracer tracer;

	@Autowired
	private PrometheusMeterRegistry registry;

	/**
	 * Every span the bridge has finished and exported so far.
	 * @return the spans, in no particular order
	 */
	protected abstract List<RecordedSpan> finishedSpans();

	@Test
	void observeGivesOneSpanNamedAfterTheOperationWithItsLabelsAndNoError() {
		assertThat(this.operations.isRecordingDirectly()).isFalse();
		assertThat(this.operations.observe("bind", Tags.of(PROVISIONER, "observed"), () -> "bound")).isEqualTo("bound");
		RecordedSpan span = onlySuccessfulSpanOf("observed", "bind");
		assertThat(span.parentSpanId()).isNull();
	}

	@Test
	void boundHandleGivesOneSpanWithItsLabelsAndNoError() {
		OperationHandle handle = this.operations.bind("bind", Tags.of(PROVISIONER, "handle"));
		assertThat(handle.observe(() -> "bound")).isEqualTo("bound");
		onlySuccessfulSpanOf("handle", "bind");
	}

	@Test
	void annotationGivesOneSpanNamedAfterTheOperationInSnakeCase() {
		assertThat(this.packer.pack("annotated", 3)).isEqualTo(3);
		onlySuccessfulSpanOf("annotated", "apply_packing");
	}

	@Test
	void failedCallHasErrorStatusAndExactlyOneExceptionTheOneItThrew() {
		IllegalStateException failure = new IllegalStateException("no capacity in us-east-1a");
		assertThatThrownBy(() -> this.operations.observe("launch", Tags.of(PROVISIONER, "failed"), () -> {
			throw failure;
		})).isSameAs(failure);
		RecordedSpan span = onlySpanOf("failed");
		assertThat(span.name()).isEqualTo("launch");
		assertThat(span.tags()).isEqualTo(Map.of(PROVISIONER, "failed", "result", "error"));
		assertThat(span.errorStatus()).isTrue();
		assertThat(span.exceptions()).containsExactly("java.lang.IllegalStateException: no capacity in us-east-1a");
	}

	@Test
	void failedBoundHandleAndAnnotationHaveExactlyOneExceptionTheOneTheyThrew() {
		OperationHandle handle = this.operations.bind("launch", Tags.of(PROVISIONER, "failed-handle"));
		assertThatThrownBy(() -> handle.observe(() -> {
			throw new UnsupportedOperationException("spot capacity gone");
		})).hasMessage("spot capacity gone");
		assertThatThrownBy(() -> this.packer.pack("failed-annotated", -1)).hasMessage("negative pod count -1");
		RecordedSpan handled = onlySpanOf("failed-handle");
		assertThat(handled.errorStatus()).isTrue();
		assertThat(handled.exceptions()).containsExactly("java.lang.UnsupportedOperationException: spot capacity gone");
		RecordedSpan annotated = onlySpanOf("failed-annotated");
		assertThat(annotated.tags()).containsEntry("result", "error");
		assertThat(annotated.errorStatus()).isTrue();
		assertThat(annotated.exceptions()).containsExactly("java.lang.IllegalArgumentException: negative pod count -1");
	}

	@Test
	void asyncCallIsOneSpanThatEndsWhenItsStageCompletes() {
		CompletableFuture<String> pending = new CompletableFuture<>();
		CompletableFuture<String> returned = this.operations.observeAsync("launch",
				Tags.of(PROVISIONER, "async-future"), () -> {
					this.operations.observe("bind", Tags.of(PROVISIONER, "async-future-child"), () -> "bound");
					return pending;
				});
		assertThat(returned).isSameAs(pending);
		RecordedSpan child = onlySpanOf("async-future-child");
		// Every span that ended before the flush is exported: the call's has not ended.
		assertThat(spansOf("async-future")).isEmpty();
		pending.complete("node");
		RecordedSpan launch = onlySuccessfulSpanOf("async-future", "launch");
		assertThat(child.parentSpanId()).isEqualTo(launch.spanId());
	}

	@Test
	void monoIsOneSpanPerSubscriptionAndTheParentOfObservedWorkUpstream() {
		ReactiveOperations reactive = ReactiveOperations.of(this.operations);
		Sinks.One<String> node = Sinks.one();
		Mono<String> launch = reactive.observe("launch", Tags.of(PROVISIONER, "async-mono"),
				reactive.observe("bind", Tags.of(PROVISIONER, "async-mono-child"), Mono.just("bound"))
					.then(node.asMono()));
		launch.subscribe();
		RecordedSpan child = onlySuccessfulSpanOf("async-mono-child", "bind");
		assertThat(spansOf("async-mono")).isEmpty();
		node.tryEmitValue("node");
		RecordedSpan parent = onlySuccessfulSpanOf("async-mono", "launch");
		assertThat(child.parentSpanId()).isEqualTo(parent.spanId());
		assertThat(child.traceId()).isEqualTo(parent.traceId());
	}

	@Test
	void cancelledSubscriptionIsASpanWithTheCancelledResultAndNoError() {
		Disposable subscription = ReactiveOperations.of(this.operations)
			.observe("launch", Tags.of(PROVISIONER, "async-cancelled"), Mono.never())
			.subscribe();
		subscription.dispose();
		RecordedSpan span = onlySpanOf("async-cancelled");
		assertThat(span.tags()).isEqualTo(Map.of(PROVISIONER, "async-cancelled", "result", "cancelled"));
		assertThat(span.errorStatus()).isFalse();
		assertThat(span.exceptions()).isEmpty();
	}

	@Test
	void callInsideAnHttpRequestIsAChildOfTheRequestSpan() throws Exception {
		HttpResponse<String> response = get("/bind?provisioner=http", "text/plain");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("bound");
		// The server span ends after the response is written: wait for it.
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(finishedSpans()).anyMatch((span) -> span.name().equals("http get /bind")));
		RecordedSpan request = finishedSpans().stream()
			.filter((span) -> span.name().equals("http get /bind"))
			.findFirst()
			.orElseThrow();
		RecordedSpan operation = onlySpanOf("http");
		assertThat(operation.traceId()).isEqualTo(request.traceId());
		assertThat(operation.parentSpanId()).isEqualTo(request.spanId());
	}

	@Test
	void durationHistogramCarriesTheCallsSpanAsExemplarInOpenMetrics() throws Exception {
		this.operations.observe("bind", Tags.of(PROVISIONER, "exemplar"), () -> "bound");
		RecordedSpan span = onlySpanOf("exemplar");
		HttpResponse<String> scrape = get("/actuator/prometheus", OPENMETRICS);
		assertThat(scrape.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/openmetrics-text"));
		List<Exemplar> exemplars = exemplars(scrape.body(), BIND + "_bucket", "exemplar");
		assertThat(exemplars).singleElement().satisfies((exemplar) -> {
			assertThat(exemplar.labels()).isEqualTo(Map.of("trace_id", span.traceId(), "span_id", span.spanId()));
			assertThat(exemplar.value()).isPositive().isLessThanOrEqualTo(exemplar.upperBound());
		});
		// OpenMetrics allows exemplars on buckets and counters only; Prometheus 2.x drops
		// the
		// whole scrape when a _count line carries one, as Micrometer's default would have
		// it.
		assertThat(scrape.body().lines().filter((line) -> line.contains(" # {"))).isNotEmpty()
			.noneMatch((line) -> line.substring(0, line.indexOf(' ')).replaceAll("\\{.*", "").endsWith("_count"));
	}

	@Test
	void exposesTheSameSeriesAsWithoutTracing() throws Exception {
		timeComparedCalls(this.operations, this.packer);
		Map<String, Double> traced = comparedSeries(this.registry);
		Set<String> tracedFamilies = controllerFamilies(this.registry);
		try (ConfigurableApplicationContext untraced = new SpringApplicationBuilder(TracedApplication.class)
			.web(WebApplicationType.NONE)
			.properties(PropertiesLoaderUtils.loadProperties(new ClassPathResource(PROPERTIES)))
			.properties("spring.autoconfigure.exclude="
					+ "org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration,"
					+ "org.springframework.boot.micrometer.tracing.autoconfigure.NoopTracerAutoConfiguration,"
					+ "org.springframework.boot.micrometer.tracing.autoconfigure.prometheus.PrometheusExemplarsAutoConfiguration,"
					+ "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration,"
					+ "org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration")
			.run()) {
			ControllerOperations operations = untraced.getBean(ControllerOperations.class);
			assertThat(operations.isRecordingDirectly()).isTrue();
			timeComparedCalls(operations, untraced.getBean(Packer.class));
			Map<String, Double> plain = comparedSeries(untraced.getBean(PrometheusMeterRegistry.class));
			// No duplicate timer or long task timer from Micrometer's default handler
			// either.
			assertThat(tracedFamilies).isEqualTo(controllerFamilies(untraced.getBean(PrometheusMeterRegistry.class)))
				.contains(BIND, "karpenter_launch_duration_seconds", "karpenter_apply_packing_duration_seconds");
			assertThat(traced.keySet()).isEqualTo(plain.keySet());
			assertThat(traced).hasSize(plain.size());
			traced.forEach((series, value) -> {
				if (series.contains("_count{") || series.contains("_in_flight{")) {
					assertThat(value).as(series).isEqualTo(plain.get(series));
				}
			});
		}
		assertThat(traced)
			.containsEntry(BIND + "_count{cluster=test,error=none,provisioner=compare-observed," + "result=success}",
					2.0)
			.containsEntry("karpenter_launch_duration_seconds_count{cluster=test,error=IllegalStateException,"
					+ "provisioner=compare-failed,result=error}", 1.0)
			.containsEntry(BIND + "_count{cluster=test,error=none,provisioner=compare-handle,result=success}", 1.0)
			.containsEntry("karpenter_apply_packing_duration_seconds_count{cluster=test,error=none,"
					+ "provisioner=compare-annotated,result=success}", 1.0);
	}

	private static void timeComparedCalls(ControllerOperations operations, Packer packer) {
		operations.observe("bind", Tags.of(PROVISIONER, "compare-observed"), () -> "bound");
		operations.observe("bind", Tags.of(PROVISIONER, "compare-observed"), () -> "bound");
		assertThatThrownBy(() -> operations.observe("launch", Tags.of(PROVISIONER, "compare-failed"), () -> {
			throw new IllegalStateException("no capacity");
		})).hasMessage("no capacity");
		operations.bind("bind", Tags.of(PROVISIONER, "compare-handle")).observe(() -> "bound");
		packer.pack("compare-annotated", 2);
	}

	private static Set<String> controllerFamilies(PrometheusMeterRegistry registry) {
		return PrometheusScrape.parse(registry.scrape())
			.families()
			.stream()
			.filter((family) -> family.startsWith("karpenter_"))
			.collect(Collectors.toCollection(TreeSet::new));
	}

	/**
	 * Every sample of the operation families whose provisioner the comparison set, keyed
	 * by name and sorted labels.
	 */
	private static Map<String, Double> comparedSeries(PrometheusMeterRegistry registry) {
		PrometheusScrape scrape = PrometheusScrape.parse(registry.scrape());
		Map<String, Double> series = new TreeMap<>();
		for (String family : OPERATION_FAMILIES) {
			String inFlight = family.replace("_duration_seconds", "_in_flight");
			for (String name : List.of(family + "_bucket", family + "_count", family + "_sum", family + "_max",
					inFlight)) {
				for (Sample sample : scrape.samples(name)) {
					String provisioner = sample.labels().get(PROVISIONER);
					if (provisioner != null && provisioner.startsWith("compare-")) {
						series.put(name + new TreeMap<>(sample.labels()).toString().replace(", ", ","), sample.value());
					}
				}
			}
		}
		return series;
	}

	/**
	 * The only span tagged with a provisioner, checked to be the span of a call that
	 * returned: named after the operation, its label and {@code result=success} as its
	 * only tags, no error.
	 */
	private RecordedSpan onlySuccessfulSpanOf(String provisioner, String name) {
		RecordedSpan span = onlySpanOf(provisioner);
		assertThat(span.name()).isEqualTo(name);
		assertThat(span.tags()).isEqualTo(Map.of(PROVISIONER, provisioner, "result", "success"));
		assertThat(span.errorStatus()).isFalse();
		assertThat(span.exceptions()).isEmpty();
		return span;
	}

	/**
	 * The only span tagged with a provisioner, once every span ended before now has been
	 * exported.
	 */
	protected RecordedSpan onlySpanOf(String provisioner) {
		List<RecordedSpan> spans = spansOf(provisioner);
		assertThat(spans).as("spans tagged provisioner=%s", provisioner).hasSize(1);
		return spans.get(0);
	}

	/**
	 * The spans tagged with a provisioner, once every span ended before now has been
	 * exported.
	 */
	private List<RecordedSpan> spansOf(String provisioner) {
		return flushedSpans().stream().filter((span) -> provisioner.equals(span.tags().get(PROVISIONER))).toList();
	}

	/**
	 * Ends a marker span and waits for it: spans are exported in the order they end, so
	 * every span that ended before it is there too.
	 */
	private List<RecordedSpan> flushedSpans() {
		String marker = "flush-" + UUID.randomUUID();
		Span span = this.tracer.nextSpan().name(marker).start();
		span.end();
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(finishedSpans()).anyMatch((finished) -> finished.name().equals(marker)));
		return finishedSpans();
	}

	private HttpResponse<String> get(String path, String accept) throws Exception {
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
				.header("Accept", accept)
				.build(), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * Exemplars of one sample name whose provisioner label is given, from an OpenMetrics
	 * scrape ({@code name{labels} value # {trace_id="…",span_id="…"} value timestamp}).
	 */
	private static List<Exemplar> exemplars(String openMetrics, String name, String provisioner) {
		return openMetrics.lines()
			.filter((line) -> line.startsWith(name + "{") && line.contains(" # {"))
			.map((line) -> {
				int hash = line.indexOf(" # {");
				Sample sample = PrometheusScrape.parse(line.substring(0, hash)).samples(name).get(0);
				// The exemplar's timestamp is in seconds with a fraction, which the text
				// format 0.0.4 reads as no timestamp: only labels and value are read.
				String exemplarText = line.substring(hash + 3);
				int labelsEnd = exemplarText.lastIndexOf('}') + 1;
				String value = exemplarText.substring(labelsEnd).trim().split(" ")[0];
				Sample exemplar = PrometheusScrape
					.parse("exemplar" + exemplarText.substring(0, labelsEnd) + " " + value)
					.samples("exemplar")
					.get(0);
				double upperBound = Double.parseDouble(sample.labels().get("le").replace("+Inf", "Infinity"));
				return new Exemplar(sample.labels(), exemplar.labels(), exemplar.value(), upperBound);
			})
			.filter((exemplar) -> provisioner.equals(exemplar.sampleLabels().get(PROVISIONER)))
			.toList();
	}

	/**
	 * A span as every bridge can describe it.
	 *
	 * @param name the span name
	 * @param traceId hex trace id
	 * @param spanId hex span id
	 * @param parentSpanId hex id of the parent span, {@code null} for a root span
	 * @param tags the span's tags (attributes)
	 * @param errorStatus whether the span is marked as failed
	 * @param exceptions every exception recorded on the span, as {@code class: message}
	 */
	protected record RecordedSpan(String name, String traceId, String spanId, String parentSpanId,
			Map<String, String> tags, boolean errorStatus, List<String> exceptions) {
	}

	private record Exemplar(Map<String, String> sampleLabels, Map<String, String> labels, double value,
			double upperBound) {
	}

	/**
	 * The application under test: an HTTP endpoint and an annotated bean that time
	 * operations.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TracedApplication {

		@Bean
		BindController bindController(ControllerOperations operations) {
			return new BindController(operations);
		}

		@Bean
		Packer packer() {
			return new Packer();
		}

	}

	/** Binds inside an HTTP request. */
	@RestController
	static class BindController {

		private final ControllerOperations operations;

		BindController(ControllerOperations operations) {
			this.operations = operations;
		}

		@GetMapping(path = "/bind", produces = "text/plain")
		String bind(@RequestParam("provisioner") String provisioner) {
			return this.operations.observe("bind", Tags.of(PROVISIONER, provisioner), () -> "bound");
		}

	}

	/** An operation timed through the annotation. */
	static class Packer {

		@ObservedOperation("apply-packing")
		public int pack(@OperationTag("provisioner") String provisioner, int pods) {
			if (pods < 0) {
				throw new IllegalArgumentException("negative pod count " + pods);
			}
			return pods;
		}

	}

}
