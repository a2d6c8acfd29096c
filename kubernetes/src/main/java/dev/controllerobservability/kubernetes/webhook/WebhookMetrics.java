package dev.controllerobservability.kubernetes.webhook;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.internal.kubernetes.WebhookFamilies;
import dev.controllerobservability.internal.metrics.NativeHistogram;

/**
 * controller-runtime's webhook metrics for admission and conversion webhooks served by a
 * Java controller, under controller-runtime's names, help texts, labels and buckets:
 * <ul>
 * <li>{@code controller_runtime_webhook_latency_seconds{webhook}}, a histogram with the
 * buckets 10 ns to 1000 s ({@code ExponentialBuckets(10e-9, 10, 12)}) and native buckets
 * of schema 3, at most 100, as controller-runtime's other histograms;</li>
 * <li>{@code controller_runtime_webhook_requests_total{webhook,code}}, the HTTP status
 * code of each answer, codes 200 and 500 pre-set to 0;</li>
 * <li>{@code controller_runtime_webhook_requests_in_flight{webhook}};</li>
 * <li>{@code controller_runtime_webhook_panics_total} and
 * {@code controller_runtime_conversion_webhook_panics_total}, without labels, both
 * registered at 0 once a webhook is declared.</li>
 * </ul>
 * The label {@code webhook} is the webhook's path, as controller-runtime labels it. A
 * panic is Java's: an exception thrown out of the handler. It is counted in the panic
 * counter of the webhook's type, and the request in {@code requests_total} with code 500,
 * the status a server answers an unhandled exception with. Recording never fails a
 * request: a failure is counted in {@code <namespace>_observability_errors_total} and
 * logged.
 *
 * <pre>{@code
 * WebhookMetrics webhooks = WebhookMetrics.builder(meterRegistry, prometheusRegistry, failures)
 *     .admission("/validate-widgets")
 *     .conversion("/convert")
 *     .build();
 * WebhookMetrics.Request request = webhooks.webhook("/validate-widgets").orElseThrow().start();
 * try {
 *     AdmissionReview answer = validate(review);
 *     request.finish(200);
 * }
 * catch (RuntimeException ex) {
 *     request.panicked();
 *     throw ex;
 * }
 * }</pre>
 */
public final class WebhookMetrics {

	private static final double NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);

	private final MeterRegistry registry;

	private final NativeHistogram latency;

	private final RecordingFailures failures;

	private final LongSupplier nanoTime;

	private final Map<String, Webhook> webhooks = new ConcurrentHashMap<>();

	private final Map<WebhookType, Counter> panics = new EnumMap<>(WebhookType.class);

	private WebhookMetrics(MeterRegistry registry, PrometheusRegistry prometheusRegistry,
			Collection<String> disabledMetrics, Map<String, String> constantLabels, RecordingFailures failures,
			LongSupplier nanoTime) {
		this.registry = registry;
		this.failures = failures;
		this.nanoTime = nanoTime;
		this.latency = NativeHistogram
			.builder(WebhookFamilies.LATENCY, WebhookFamilies.LATENCY_HELP, WebhookFamilies.LATENCY_BUCKETS)
			.labelNames(WebhookFamilies.WEBHOOK_LABEL)
			.constLabels(NativeHistogram.constantLabels(constantLabels, WebhookFamilies.WEBHOOK_LABEL))
			.build();
		if (!disabledMetrics.contains(WebhookFamilies.LATENCY)) {
			this.latency.register(prometheusRegistry);
		}
	}

	/**
	 * Starts webhook metrics.
	 * @param registry where the counters and the gauge are registered
	 * @param prometheusRegistry where the latency histogram is registered: the registry
	 * the application's Prometheus endpoint scrapes
	 * @param failures where recording failures go
	 * @return the builder
	 */
	public static Builder builder(MeterRegistry registry, PrometheusRegistry prometheusRegistry,
			RecordingFailures failures) {
		return new Builder(registry, prometheusRegistry, failures);
	}

	/**
	 * Checks a webhook path: the rule {@link Builder#admission},
	 * {@link Builder#conversion} and {@link #declare} apply, and the Spring Boot
	 * properties with them.
	 * @param path the path
	 * @return why the path cannot be a webhook's, or {@code null} if it can
	 */
	public static @Nullable String problem(@Nullable String path) {
		if (path == null || path.isBlank()) {
			return "a webhook needs its path, the path the API server calls";
		}
		if (!path.startsWith("/")) {
			return "a webhook path starts with '/': it is the path of the URL the API server calls, as in "
					+ "clientConfig.service.path of the webhook configuration";
		}
		if (path.chars().anyMatch((c) -> Character.isWhitespace(c) || c == '?' || c == '#')) {
			return "a webhook path is a URL path, without whitespace, query or fragment";
		}
		if (path.chars().anyMatch((c) -> c == '{' || c == '}' || c == '*')) {
			return "a webhook path is one literal path, the webhook configuration's clientConfig.service.path, "
					+ "not a pattern";
		}
		return null;
	}

	/**
	 * Declares a webhook after the metrics were built, such as one found on an annotated
	 * handler; declaring a path again with the same type returns the webhook declared.
	 * @param path the webhook's path, its {@code webhook} label
	 * @param type what the webhook does
	 * @return the webhook
	 * @throws IllegalArgumentException if the path is not a path or is already declared
	 * with the other type
	 */
	public Webhook declare(String path, WebhookType type) {
		String problem = problem(path);
		if (problem != null) {
			throw new IllegalArgumentException("Webhook path \"" + path + "\": " + problem);
		}
		Webhook webhook = this.webhooks.computeIfAbsent(path, (key) -> new Webhook(key, type));
		if (webhook.type != type) {
			throw new IllegalArgumentException("Webhook path \"" + path + "\" is declared as " + article(type)
					+ " webhook and as " + article(webhook.type) + " webhook: declare each path with one type");
		}
		return webhook;
	}

	private static String article(WebhookType type) {
		return ((type == WebhookType.ADMISSION) ? "an " : "a ") + type.name().toLowerCase(Locale.ROOT);
	}

	/**
	 * The webhook declared at a path.
	 * @param path the request's path within the application
	 * @return the webhook, or empty if none is declared there
	 */
	public Optional<Webhook> webhook(String path) {
		return Optional.ofNullable(this.webhooks.get(path));
	}

	/**
	 * The declared webhooks.
	 * @return the webhooks by path
	 */
	public Map<String, Webhook> webhooks() {
		return Map.copyOf(this.webhooks);
	}

	private Counter panics(WebhookType type) {
		// Both counters from the first webhook on, as a controller-runtime binary
		// registers both: the alerts read both.
		synchronized (this.panics) {
			if (this.panics.isEmpty()) {
				this.panics.put(WebhookType.ADMISSION,
						Counter.builder(WebhookFamilies.PANICS)
							.description(WebhookFamilies.PANICS_HELP)
							.register(this.registry));
				this.panics.put(WebhookType.CONVERSION,
						Counter.builder(WebhookFamilies.CONVERSION_PANICS)
							.description(WebhookFamilies.CONVERSION_PANICS_HELP)
							.register(this.registry));
			}
			return this.panics.get(type);
		}
	}

	/**
	 * One declared webhook and its series.
	 */
	public final class Webhook {

		private final String path;

		private final WebhookType type;

		private final AtomicInteger inFlight = new AtomicInteger();

		private final Map<Integer, Counter> requests = new ConcurrentHashMap<>();

		private final NativeHistogram.DataPoint latency;

		private final Counter panics;

		private Webhook(String path, WebhookType type) {
			this.path = path;
			this.type = type;
			this.latency = WebhookMetrics.this.latency.labelValues(path);
			this.panics = panics(type);
			Gauge.builder(WebhookFamilies.IN_FLIGHT, this.inFlight, AtomicInteger::get)
				.description(WebhookFamilies.IN_FLIGHT_HELP)
				.tag(WebhookFamilies.WEBHOOK_LABEL, path)
				.register(WebhookMetrics.this.registry);
			for (int code : WebhookFamilies.PRESET_CODES) {
				requests(code);
			}
		}

		/**
		 * The webhook's path, its {@code webhook} label.
		 * @return the path
		 */
		public String path() {
			return this.path;
		}

		/**
		 * What the webhook does.
		 * @return its type
		 */
		public WebhookType type() {
			return this.type;
		}

		/**
		 * Starts recording one request: it is in flight until {@link Request#finish(int)}
		 * or {@link Request#panicked()}.
		 * @return the request
		 */
		public Request start() {
			try {
				long start = WebhookMetrics.this.nanoTime.getAsLong();
				this.inFlight.incrementAndGet();
				return new Request(this, start, true);
			}
			catch (RuntimeException ex) {
				WebhookMetrics.this.failures.record("start recording a webhook request", ex);
				return new Request(this, 0, false);
			}
		}

		private Counter requests(int code) {
			return this.requests.computeIfAbsent(code,
					(key) -> Counter.builder(WebhookFamilies.REQUESTS)
						.description(WebhookFamilies.REQUESTS_HELP)
						.tag(WebhookFamilies.WEBHOOK_LABEL, this.path)
						.tag(WebhookFamilies.CODE_LABEL, Integer.toString(key))
						.register(WebhookMetrics.this.registry));
		}

		private void finish(long start, int code, boolean panic) {
			try {
				this.inFlight.decrementAndGet();
				if (panic) {
					this.panics.increment();
				}
				this.latency.observe((WebhookMetrics.this.nanoTime.getAsLong() - start) / NANOS_PER_SECOND);
				requests(code).increment();
			}
			catch (RuntimeException ex) {
				WebhookMetrics.this.failures.record("record a webhook request", ex);
			}
		}

	}

	/**
	 * One request to a webhook, in flight until it finishes. Finishing it a second time
	 * records nothing.
	 */
	public static final class Request {

		private final Webhook webhook;

		private final long start;

		private final AtomicBoolean open;

		private Request(Webhook webhook, long start, boolean open) {
			this.webhook = webhook;
			this.start = start;
			this.open = new AtomicBoolean(open);
		}

		/**
		 * Records the answer: the latency and the request under its HTTP status code.
		 * @param code the HTTP status code of the answer, such as 200
		 */
		public void finish(int code) {
			if (this.open.compareAndSet(true, false)) {
				this.webhook.finish(this.start, code, false);
			}
		}

		/**
		 * Records a handler that threw: a panic of the webhook's type, and the request
		 * with code 500.
		 */
		public void panicked() {
			if (this.open.compareAndSet(true, false)) {
				this.webhook.finish(this.start, WebhookFamilies.PANIC_CODE, true);
			}
		}

		/**
		 * Stops counting the request in flight without recording an answer, for a request
		 * the client gave up before any answer was written.
		 */
		public void abandon() {
			if (this.open.compareAndSet(true, false)) {
				this.webhook.inFlight.decrementAndGet();
			}
		}

	}

	/**
	 * Builds {@link WebhookMetrics}, refusing a path that is not one or is declared
	 * twice.
	 */
	public static final class Builder {

		private final MeterRegistry registry;

		private final PrometheusRegistry prometheusRegistry;

		private final RecordingFailures failures;

		private final Map<WebhookType, List<@Nullable String>> paths = new EnumMap<>(WebhookType.class);

		private Collection<String> disabledMetrics = Set.of();

		private Map<String, String> constantLabels = Map.of();

		private LongSupplier nanoTime = System::nanoTime;

		private Builder(MeterRegistry registry, PrometheusRegistry prometheusRegistry, RecordingFailures failures) {
			this.registry = registry;
			this.prometheusRegistry = prometheusRegistry;
			this.failures = failures;
			for (WebhookType type : WebhookType.values()) {
				this.paths.put(type, new ArrayList<>());
			}
		}

		/**
		 * Declares a validating or mutating webhook.
		 * @param path its path, such as {@code /validate-widgets}
		 * @return this builder
		 */
		public Builder admission(@Nullable String path) {
			this.paths.get(WebhookType.ADMISSION).add(path);
			return this;
		}

		/**
		 * Declares a conversion webhook.
		 * @param path its path, such as {@code /convert}
		 * @return this builder
		 */
		public Builder conversion(@Nullable String path) {
			this.paths.get(WebhookType.CONVERSION).add(path);
			return this;
		}

		/**
		 * Leaves out the latency histogram if its Prometheus name is listed.
		 * @param disabledMetrics Prometheus names of histograms not to register
		 * @return this builder
		 */
		public Builder disabledMetrics(Collection<String> disabledMetrics) {
			this.disabledMetrics = Set.copyOf(disabledMetrics);
			return this;
		}

		/**
		 * Gives every latency series labels, such as the registry's common tags.
		 * @param constantLabels the labels
		 * @return this builder
		 */
		public Builder constantLabels(Map<String, String> constantLabels) {
			this.constantLabels = Map.copyOf(constantLabels);
			return this;
		}

		Builder nanoTime(LongSupplier nanoTime) {
			this.nanoTime = nanoTime;
			return this;
		}

		/** How to write a refused path, as far as it can be told. */
		private static String fix(@Nullable String path) {
			String stripped = (path != null) ? path.strip() : "";
			int scheme = stripped.indexOf("://");
			if (scheme > 0) {
				int slash = stripped.indexOf('/', scheme + 3);
				String rest = (slash >= 0) ? stripped.substring(slash) : "/";
				int end = rest.indexOf('?');
				return "Give the path alone, without scheme and host, such as '"
						+ ((end >= 0) ? rest.substring(0, end) : rest) + "'";
			}
			if (!stripped.isEmpty() && !stripped.equals(path) && stripped.startsWith("/")) {
				return "Write it without the white space, as '" + stripped + "'";
			}
			if (!stripped.isEmpty() && !stripped.startsWith("/")
					&& stripped.chars().noneMatch(Character::isWhitespace)) {
				return "Write it as '/" + stripped + "'";
			}
			return "Give the path the webhook is served at, such as '/validate-widgets'";
		}

		/**
		 * Builds the metrics, with every declared webhook's series.
		 * @return the metrics
		 * @throws InvalidSettingException for the first path that is not a path or is
		 * declared twice, naming its
		 * {@code controller.observability.kubernetes.webhooks.*} property and its builder
		 * call
		 */
		public WebhookMetrics build() {
			Map<String, String> declared = new LinkedHashMap<>();
			for (Map.Entry<WebhookType, List<@Nullable String>> entry : this.paths.entrySet()) {
				String kind = entry.getKey().name().toLowerCase(Locale.ROOT);
				List<@Nullable String> paths = entry.getValue();
				for (int i = 0; i < paths.size(); i++) {
					String path = paths.get(i);
					String property = "kubernetes.webhooks." + kind + "-paths[" + i + "]";
					String call = "WebhookMetrics.Builder." + kind + "(…) call " + i;
					String problem = problem(path);
					if (problem != null) {
						throw new InvalidSettingException(property, call, path, problem, fix(path), null);
					}
					String first = declared.putIfAbsent(path, kind);
					if (first != null) {
						throw new InvalidSettingException(property, call, path,
								"the path is already declared as " + ((first.equals("admission")) ? "an " : "a ")
										+ first + " webhook path",
								"Declare each webhook path once, as admission or as conversion", null);
					}
				}
			}
			WebhookMetrics metrics = new WebhookMetrics(this.registry, this.prometheusRegistry, this.disabledMetrics,
					this.constantLabels, this.failures, this.nanoTime);
			this.paths.forEach((type, paths) -> paths.forEach((path) -> metrics.declare(path, type)));
			return metrics;
		}

	}

}
