package dev.controllerobservability.kubernetes.webhook;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Clock;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.internal.kubernetes.WebhookFamilies;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class WebhookMetricsTests {

	private final PrometheusRegistry prometheus = new PrometheusRegistry();

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
			this.prometheus, Clock.SYSTEM);

	private final RecordingFailures failures = new RecordingFailures(this.registry, "widgets", Duration.ofMinutes(1));

	private final AtomicLong now = new AtomicLong();

	private WebhookMetrics.Builder builder() {
		return WebhookMetrics.builder(this.registry, this.prometheus, this.failures).nanoTime(this.now::get);
	}

	@Test
	void presetsEveryDeclaredWebhooksSeriesAndBothPanicCounters() {
		builder().admission("/validate").build();
		PrometheusScrape scrape = scrape();
		assertThat(scrape.value("controller_runtime_webhook_requests_total",
				Map.of("webhook", "/validate", "code", "200")))
			.isEqualTo(0.0);
		assertThat(scrape.value("controller_runtime_webhook_requests_total",
				Map.of("webhook", "/validate", "code", "500")))
			.isEqualTo(0.0);
		assertThat(scrape.value("controller_runtime_webhook_requests_in_flight", Map.of("webhook", "/validate")))
			.isEqualTo(0.0);
		assertThat(scrape.value("controller_runtime_webhook_panics_total", Map.of())).isEqualTo(0.0);
		assertThat(scrape.value("controller_runtime_conversion_webhook_panics_total", Map.of())).isEqualTo(0.0);
		assertThat(scrape.help("controller_runtime_webhook_requests_total"))
			.isEqualTo("Total number of admission requests by HTTP status code.");
		assertThat(scrape.help("controller_runtime_webhook_requests_in_flight"))
			.isEqualTo("Current number of admission requests being served.");
		assertThat(scrape.help("controller_runtime_webhook_panics_total")).isEqualTo("Total number of webhook panics");
		assertThat(scrape.help("controller_runtime_webhook_latency_seconds"))
			.isEqualTo("Histogram of the latency of processing admission requests");
	}

	@Test
	void exposesNothingWithoutAWebhook() {
		builder().build();
		assertThat(scrape().families()).noneMatch((family) -> family.startsWith("controller_runtime_"));
	}

	@Test
	void recordsLatencyInControllerRuntimesBucketsWithNativeBuckets() {
		WebhookMetrics metrics = builder().admission("/validate").build();
		WebhookMetrics.Request request = metrics.webhook("/validate").orElseThrow().start();
		this.now.addAndGet(50_000_000);
		request.finish(200);
		PrometheusScrape scrape = scrape();
		Map<String, String> bucket01 = Map.of("webhook", "/validate", "le", "0.1");
		assertThat(scrape.value("controller_runtime_webhook_latency_seconds_bucket", bucket01)).isEqualTo(1.0);
		assertThat(scrape.value("controller_runtime_webhook_latency_seconds_bucket",
				Map.of("webhook", "/validate", "le", "0.01")))
			.isEqualTo(0.0);
		assertThat(scrape.samples("controller_runtime_webhook_latency_seconds_bucket")).hasSize(13);
		assertThat(scrape.value("controller_runtime_webhook_latency_seconds_count", Map.of("webhook", "/validate")))
			.isEqualTo(1.0);
		assertThat(scrape.value("controller_runtime_webhook_latency_seconds_sum", Map.of("webhook", "/validate")))
			.isEqualTo(0.05);
		HistogramSnapshot.HistogramDataPointSnapshot series = this.prometheus.scrape()
			.stream()
			.filter((snapshot) -> snapshot.getMetadata().getPrometheusName().equals(WebhookFamilies.LATENCY))
			.map((snapshot) -> ((HistogramSnapshot) snapshot).getDataPoints().get(0))
			.findFirst()
			.orElseThrow();
		assertThat(series.hasNativeHistogramData()).isTrue();
		assertThat(series.getNativeSchema()).isEqualTo(3);
	}

	@Test
	void countsRequestsByCodeAndInFlightUntilTheyFinish() {
		WebhookMetrics metrics = builder().admission("/validate").build();
		WebhookMetrics.Webhook webhook = metrics.webhook("/validate").orElseThrow();
		WebhookMetrics.Request first = webhook.start();
		WebhookMetrics.Request second = webhook.start();
		assertThat(inFlight("/validate")).isEqualTo(2.0);
		first.finish(200);
		first.finish(200);
		second.finish(400);
		assertThat(inFlight("/validate")).isEqualTo(0.0);
		assertThat(requests("/validate", "200")).isEqualTo(1.0);
		assertThat(requests("/validate", "400")).isEqualTo(1.0);
	}

	@Test
	void countsAPanicByTheWebhooksTypeAndTheRequestWithCode500() {
		WebhookMetrics metrics = builder().admission("/validate").conversion("/convert").build();
		metrics.webhook("/validate").orElseThrow().start().panicked();
		metrics.webhook("/convert").orElseThrow().start().panicked();
		metrics.webhook("/convert").orElseThrow().start().panicked();
		PrometheusScrape scrape = scrape();
		assertThat(scrape.value("controller_runtime_webhook_panics_total", Map.of())).isEqualTo(1.0);
		assertThat(scrape.value("controller_runtime_conversion_webhook_panics_total", Map.of())).isEqualTo(2.0);
		assertThat(requests("/validate", "500")).isEqualTo(1.0);
		assertThat(requests("/convert", "500")).isEqualTo(2.0);
		assertThat(inFlight("/convert")).isEqualTo(0.0);
	}

	@Test
	void abandonedRequestLeavesFlightUncounted() {
		WebhookMetrics metrics = builder().conversion("/convert").build();
		metrics.webhook("/convert").orElseThrow().start().abandon();
		assertThat(inFlight("/convert")).isEqualTo(0.0);
		assertThat(requests("/convert", "200")).isEqualTo(0.0);
		assertThat(requests("/convert", "500")).isEqualTo(0.0);
	}

	@Test
	void aFailureToRecordIsCountedAndNeverThrown() {
		WebhookMetrics metrics = WebhookMetrics.builder(this.registry, this.prometheus, this.failures).nanoTime(() -> {
			throw new IllegalStateException("clock broken");
		}).admission("/validate").build();
		WebhookMetrics.Request request = metrics.webhook("/validate").orElseThrow().start();
		request.finish(200);
		assertThat(this.failures.count()).isEqualTo(1);
		assertThat(inFlight("/validate")).isEqualTo(0.0);
	}

	@Test
	void refusesAPathWithoutLeadingSlashNamingThePropertyAndTheFix() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> builder().admission("/validate").admission("mutate").build())
			.satisfies((ex) -> {
				assertThat(ex.getProperty()).isEqualTo("kubernetes.webhooks.admission-paths[1]");
				assertThat(ex.getBuilderCall()).isEqualTo("WebhookMetrics.Builder.admission(…) call 1");
				assertThat(ex.getValue()).isEqualTo("mutate");
				assertThat(ex.getReason()).startsWith("a webhook path starts with '/'");
				assertThat(ex.getAction()).isEqualTo("Write it as '/mutate'");
			});
	}

	@Test
	void refusesAPathDeclaredTwice() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> builder().admission("/hooks").conversion("/hooks").build())
			.satisfies((ex) -> {
				assertThat(ex.getProperty()).isEqualTo("kubernetes.webhooks.conversion-paths[0]");
				// Plain Java names no Spring property, in the reason either.
				assertThat(ex.getMessage())
					.startsWith("WebhookMetrics.Builder.conversion(…) call 0 = \"/hooks\": "
							+ "the path is already declared as an admission webhook path.")
					.doesNotContain("controller.observability");
				assertThat(ex.getAction()).isEqualTo("Declare each webhook path once, as admission or as conversion");
			});
	}

	@Test
	void suggestsTheFixThePathNeeds() {
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(() -> builder().admission(" /a").build())
			.satisfies((ex) -> assertThat(ex.getAction()).isEqualTo("Write it without the white space, as '/a'"));
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> builder().admission("https://hooks.example:9443/validate?timeout=5s").build())
			.satisfies((ex) -> assertThat(ex.getAction())
				.isEqualTo("Give the path alone, without scheme and host, such as '/validate'"));
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(() -> builder().admission("").build())
			.satisfies((ex) -> assertThat(ex.getAction())
				.isEqualTo("Give the path the webhook is served at, such as '/validate-widgets'"));
	}

	@Test
	void refusesBlankPathsAndPathsWithAQuery() {
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(() -> builder().conversion(" ").build())
			.satisfies((ex) -> assertThat(ex.getProperty()).isEqualTo("kubernetes.webhooks.conversion-paths[0]"));
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> builder().admission("/validate?timeout=10s").build())
			.satisfies((ex) -> assertThat(ex.getReason())
				.isEqualTo("a webhook path is a URL path, without whitespace, query or fragment"));
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> builder().admission("/validate/{kind}").build())
			.satisfies((ex) -> assertThat(ex.getReason()).isEqualTo(
					"a webhook path is one literal path, the webhook configuration's clientConfig.service.path, not a pattern"));
	}

	@Test
	void declaresAWebhookLaterOnceWithOneType() {
		WebhookMetrics metrics = builder().admission("/validate").build();
		assertThat(metrics.declare("/validate", WebhookType.ADMISSION)).isSameAs(metrics.webhook("/validate").get());
		assertThatIllegalArgumentException().isThrownBy(() -> metrics.declare("/validate", WebhookType.CONVERSION))
			.withMessage("Webhook path \"/validate\" is declared as a conversion webhook and as an admission webhook: "
					+ "declare each path with one type");
		assertThatIllegalArgumentException().isThrownBy(() -> metrics.declare("convert", WebhookType.CONVERSION))
			.withMessageStartingWith("Webhook path \"convert\": a webhook path starts with '/'");
		assertThat(metrics.webhooks()).containsOnlyKeys("/validate");
	}

	@Test
	void leavesADisabledLatencyHistogramUnregistered() {
		WebhookMetrics.builder(this.registry, this.prometheus, this.failures)
			.disabledMetrics(Set.of(WebhookFamilies.LATENCY))
			.admission("/validate")
			.build();
		assertThat(scrape().families()).doesNotContain(WebhookFamilies.LATENCY)
			.contains("controller_runtime_webhook_requests_total");
	}

	private double inFlight(String webhook) {
		return scrape().value("controller_runtime_webhook_requests_in_flight", Map.of("webhook", webhook));
	}

	private double requests(String webhook, String code) {
		return scrape().value("controller_runtime_webhook_requests_total", Map.of("webhook", webhook, "code", code));
	}

	private PrometheusScrape scrape() {
		return PrometheusScrape.parse(this.registry.scrape());
	}

}
