package dev.controllerobservability.kubernetes.client;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.RequestConfig;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.http.StandardHttpClientBuilder;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.http.WebSocketUpgradeResponse;
import io.fabric8.kubernetes.client.impl.KubernetesClientImpl;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.kubernetes.KubernetesConventions;
import dev.controllerobservability.internal.kubernetes.RestClientSizes;
import dev.controllerobservability.internal.metrics.BucketRules;
import dev.controllerobservability.RecordingFailures;

/**
 * Counts and times the Kubernetes API calls of a fabric8 client as client-go does, so
 * that dashboards built for Go controllers work unchanged:
 * <ul>
 * <li>{@code rest_client_requests_total{code,method,host}}: every HTTP attempt, including
 * fabric8's own retries, with {@code code="<error>"} when no response arrived. fabric8
 * tells interceptors of a connection failure only when it retries, so the last attempt of
 * a call that fails for good without a response is not counted;</li>
 * <li>{@code rest_client_request_duration_seconds{verb,host}}: time to the response
 * headers, with client-go's buckets. Watches ({@code ?watch=true} and WebSocket upgrades)
 * are counted but not timed, as in client-go: a watch stream is not a long request.</li>
 * </ul>
 * controller-runtime's opt-in families that fabric8 can feed ({@link RestClientMetric})
 * are recorded when enabled through {@link #builder}. It is a fabric8
 * {@link Interceptor}. Clients the application builds itself are instrumented with one
 * line:
 *
 * <pre>{@code
 * KubernetesClient client = clientMetrics.instrument(new KubernetesClientBuilder()).build();
 * }</pre> Recording never fails the API call: a failure is counted in
 * {@code <namespace>_observability_errors_total} and logged.
 */
public final class KubernetesClientMetrics implements Interceptor {

	/** Name under which the interceptor is registered on a client. */
	public static final String INTERCEPTOR_NAME = "controller-observability";

	private static final String REQUESTS = "rest.client.requests";

	private static final String DURATION = "rest.client.request.duration";

	private static final String RETRIES = "rest.client.request.retries";

	private static final long NOT_TIMED = Long.MIN_VALUE;

	private static final Duration[] BUCKETS = BucketRules.durations(KubernetesConventions.CLIENT_GO_LATENCY_BUCKETS);

	/**
	 * The call whose attempt {@link #before} saw, for {@link #consumer}: fabric8 runs
	 * every interceptor's {@code before} and then every {@code consumer} of an attempt on
	 * one thread, one after the other.
	 */
	private static final ThreadLocal<Call> BEGINNING = new ThreadLocal<>();

	private final MeterRegistry registry;

	private final RecordingFailures failures;

	private final LongSupplier nanoTime;

	private final @Nullable RestClientSizes sizes;

	private final boolean retries;

	/**
	 * Attempts by the request object fabric8 sends; weak, so a lost response leaks
	 * nothing.
	 */
	private final Map<HttpRequest, Attempt> attempts = Collections.synchronizedMap(new WeakHashMap<>());

	/**
	 * Response bodies being counted, by the request object fabric8 sends; apart from
	 * {@link #attempts} so that no call holds its caller's consumer.
	 */
	private final Map<HttpRequest, CountingConsumer> bodies = Collections.synchronizedMap(new WeakHashMap<>());

	/** Calls by the request object the caller handed fabric8, kept for its retries. */
	private final Map<HttpRequest, Call> calls = Collections.synchronizedMap(new WeakHashMap<>());

	/**
	 * WebSocket upgrade responses counted: fabric8 hands a failed upgrade to every
	 * interceptor's after() once more per interceptor.
	 */
	private final Set<HttpResponse<?>> upgrades = Collections
		.newSetFromMap(Collections.synchronizedMap(new WeakHashMap<>()));

	private final Map<List<String>, Counter> counters = new ConcurrentHashMap<>();

	private final Map<List<String>, Counter> retryCounters = new ConcurrentHashMap<>();

	private final Map<List<String>, Timer> timers = new ConcurrentHashMap<>();

	/**
	 * Creates the interceptor, without the opt-in families.
	 * @param registry where the {@code rest_client_*} meters are registered
	 * @param failures where recording failures go
	 */
	public KubernetesClientMetrics(MeterRegistry registry, RecordingFailures failures) {
		this(registry, failures, System::nanoTime, null, false);
	}

	KubernetesClientMetrics(MeterRegistry registry, RecordingFailures failures, LongSupplier nanoTime) {
		this(registry, failures, nanoTime, null, false);
	}

	private KubernetesClientMetrics(MeterRegistry registry, RecordingFailures failures, LongSupplier nanoTime,
			@Nullable RestClientSizes sizes, boolean retries) {
		this.registry = registry;
		this.failures = failures;
		this.nanoTime = nanoTime;
		this.sizes = sizes;
		this.retries = retries;
	}

	/**
	 * Starts an interceptor that can also record controller-runtime's opt-in families.
	 * @param registry where the {@code rest_client_*} meters are registered
	 * @param failures where recording failures go
	 * @return the builder
	 */
	public static Builder builder(MeterRegistry registry, RecordingFailures failures) {
		return new Builder(registry, failures);
	}

	/**
	 * Adds this interceptor to a client builder. Use it when building a client:
	 * {@code clientMetrics.instrument(new KubernetesClientBuilder()).build()}. It sets
	 * the builder's HTTP client consumer; to add your own as well, call
	 * {@link #customize(HttpClient.DerivedClientBuilder)} from it instead.
	 * @param builder the client builder
	 * @return the same builder
	 */
	public KubernetesClientBuilder instrument(KubernetesClientBuilder builder) {
		return builder.withHttpClientBuilderConsumer(this::customize);
	}

	/**
	 * Adds this interceptor to an HTTP client builder, ahead of the others: the first
	 * interceptor is handed the caller's request on every attempt, which is how a retry
	 * is told from a new call.
	 * @param builder fabric8's HTTP client builder
	 * @throws IllegalArgumentException if {@link RestClientMetric#REQUEST_RETRIES} is
	 * enabled and the builder is not fabric8's standard one, whose interceptors can be
	 * ordered
	 */
	public void customize(HttpClient.DerivedClientBuilder builder) {
		if (builder instanceof StandardHttpClientBuilder<?, ?, ?> standard) {
			LinkedHashMap<String, Interceptor> interceptors = standard.getInterceptors();
			Map<String, Interceptor> others = new LinkedHashMap<>(interceptors);
			others.remove(INTERCEPTOR_NAME);
			interceptors.clear();
			interceptors.put(INTERCEPTOR_NAME, this);
			interceptors.putAll(others);
		}
		else if (this.retries) {
			throw new IllegalArgumentException(RestClientMetric.REQUEST_RETRIES.prometheusName()
					+ " tells retries from calls by running first among fabric8's interceptors, which "
					+ builder.getClass().getName() + " does not allow; build the client with fabric8's standard "
					+ "HTTP client, or do not enable RestClientMetric.REQUEST_RETRIES");
		}
		else {
			builder.addOrReplaceInterceptor(INTERCEPTOR_NAME, this);
		}
	}

	/**
	 * Returns a client that talks to the same API server as {@code client}, with the same
	 * configuration, serialization and HTTP connections, and whose calls are counted. The
	 * given client stays usable, uncounted.
	 * @param client a client built without this interceptor
	 * @return the instrumented client
	 */
	public KubernetesClient instrument(KubernetesClient client) {
		HttpClient.DerivedClientBuilder derived = client.getHttpClient().newBuilder();
		customize(derived);
		return new KubernetesClientImpl(derived.build(), client.getConfiguration(), null,
				client.getKubernetesSerialization());
	}

	@Override
	public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
		if (!this.retries) {
			return;
		}
		try {
			BEGINNING.remove();
			// A WebSocket upgrade's attempts each build their request anew: nothing links
			// them.
			if (builder instanceof HttpRequest.Builder) {
				BEGINNING.set(call(request, tags));
			}
		}
		catch (RuntimeException ex) {
			this.failures.record("count a Kubernetes API call's retries", ex);
		}
	}

	private Call call(HttpRequest request, RequestTags tags) {
		synchronized (this.calls) {
			Call call = this.calls.get(request);
			if (call == null || call.ended) {
				call = new Call(retryLimit(tags));
				this.calls.put(request, call);
			}
			call.attempts.incrementAndGet();
			return call;
		}
	}

	@Override
	public AsyncBody.Consumer<List<ByteBuffer>> consumer(AsyncBody.Consumer<List<ByteBuffer>> consumer,
			HttpRequest request) {
		// Called with the request exactly as sent, after every interceptor's before().
		try {
			Call call = BEGINNING.get();
			BEGINNING.remove();
			boolean watch = isWatch(request.uri());
			CountingConsumer counting = (this.sizes != null && this.sizes.recordsResponses() && !watch)
					? new CountingConsumer(consumer) : null;
			Attempt attempt = new Attempt(watch ? NOT_TIMED : this.nanoTime.getAsLong(), call,
					call != null && call.attempts.get() > 1);
			if (call != null) {
				call.current = attempt;
			}
			this.attempts.put(request, attempt);
			if (counting == null) {
				return consumer;
			}
			this.bodies.put(request, counting);
			return counting;
		}
		catch (RuntimeException ex) {
			this.failures.record("time a Kubernetes API call", ex);
			return consumer;
		}
	}

	@Override
	public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
		try {
			if (response instanceof WebSocketUpgradeResponse && !this.upgrades.add(response)) {
				return;
			}
			long end = this.nanoTime.getAsLong();
			String host = host(request.uri());
			String code = Integer.toString(response.code());
			count(code, request.method(), host);
			Attempt attempt = this.attempts.get(request);
			if (attempt == null) {
				return;
			}
			// fabric8 calls after() again when an interceptor's afterFailure re-sends the
			// attempt: timing and retries are the first response's.
			if (attempt.finished.compareAndSet(false, true)) {
				if (attempt.start != NOT_TIMED) {
					timer(request.method(), host).record(end - attempt.start, TimeUnit.NANOSECONDS);
				}
				finished(attempt, code, request.method(), host, retried(response.code()));
			}
			// Watches are streams: client-go records no sizes for them.
			if (this.sizes != null && attempt.start != NOT_TIMED) {
				recordSizes(this.sizes, request, response, host);
			}
		}
		catch (RuntimeException ex) {
			this.failures.record("count a Kubernetes API call", ex);
		}
	}

	private void recordSizes(RestClientSizes sizes, HttpRequest request, HttpResponse<?> response, String host) {
		long sent = sentBodyBytes(request);
		if (sent >= 0) {
			sizes.request(request.method(), host, sent);
		}
		CountingConsumer counting = this.bodies.get(request);
		if (counting != null && response.body() instanceof AsyncBody body) {
			boolean successful = response.code() >= 200 && response.code() <= 206;
			// client-go records a call's response once it has read the whole body, when
			// it is a success or has a body; fabric8 cancels the bodies of retried
			// attempts.
			body.done().whenComplete((ignored, failure) -> {
				try {
					long delivered = counting.bytes();
					if (failure == null) {
						// Read to its end: no later response of this request is counted
						// here.
						this.bodies.remove(request);
						if (successful || delivered > 0) {
							sizes.response(request.method(), host, delivered);
						}
					}
				}
				catch (RuntimeException ex) {
					this.failures.record("measure a Kubernetes API response", ex);
				}
			});
		}
	}

	@Override
	public void afterConnectionFailure(HttpRequest request, Throwable failure) {
		try {
			String host = host(request.uri());
			count(KubernetesConventions.NO_RESPONSE_CODE, request.method(), host);
			// fabric8 passes the caller's request here, the key of the call.
			Call call = this.retries ? this.calls.get(request) : null;
			Attempt attempt = (call != null) ? call.current : null;
			if (attempt != null && attempt.finished.compareAndSet(false, true)) {
				finished(attempt, KubernetesConventions.NO_RESPONSE_CODE, request.method(), host,
						failure instanceof IOException);
			}
		}
		catch (RuntimeException ex) {
			this.failures.record("count a failed Kubernetes API call", ex);
		}
	}

	/**
	 * Counts an attempt after the first of its call by its own outcome, as client-go's
	 * {@code withRetry.After} does, and ends the call when fabric8 will not retry it.
	 */
	private void finished(Attempt attempt, String code, String verb, String host, boolean retriedOutcome) {
		if (attempt.retry) {
			retryCounter(code, verb, host).increment();
		}
		Call call = attempt.call;
		if (call != null && attempt == call.current && (!retriedOutcome || !call.mayRetry())) {
			call.ended = true;
		}
	}

	/** fabric8's StandardHttpClient.shouldRetry: 429 and 5xx are retried. */
	private static boolean retried(int code) {
		return code == 429 || code >= 500;
	}

	private static int retryLimit(RequestTags tags) {
		// The same tag fabric8's retry loop reads its limit from.
		RequestConfig config = tags.getTag(RequestConfig.class);
		Integer limit = (config != null) ? config.getRequestRetryBackoffLimit() : null;
		return (limit != null) ? limit : Config.DEFAULT_REQUEST_RETRY_BACKOFFLIMIT;
	}

	private void count(String code, String method, String host) {
		this.counters
			.computeIfAbsent(List.of(code, method, host),
					(key) -> Counter.builder(REQUESTS)
						.description("Number of HTTP requests, partitioned by status code, method, and host.")
						.tag(KubernetesConventions.CODE, code)
						.tag("method", method)
						.tag(KubernetesConventions.HOST, host)
						.register(this.registry))
			.increment();
	}

	private Counter retryCounter(String code, String verb, String host) {
		return this.retryCounters.computeIfAbsent(List.of(code, verb, host),
				(key) -> Counter.builder(RETRIES)
					.description("Number of request retries, partitioned by status code, verb, and host.")
					.tag(KubernetesConventions.CODE, code)
					.tag(KubernetesConventions.VERB, verb)
					.tag(KubernetesConventions.HOST, host)
					.register(this.registry));
	}

	private Timer timer(String verb, String host) {
		return this.timers.computeIfAbsent(List.of(verb, host),
				(key) -> Timer.builder(DURATION)
					.description("Request latency in seconds. Broken down by verb, and host.")
					.tag(KubernetesConventions.VERB, verb)
					.tag(KubernetesConventions.HOST, host)
					.serviceLevelObjectives(BUCKETS)
					.register(this.registry));
	}

	/**
	 * The body bytes the JDK HTTP client sends for a request: a string is sent UTF-8
	 * encoded, bytes as they are, a stream of known length as that many bytes (the client
	 * fails the request otherwise).
	 * @return the bytes, or -1 for a stream of unknown length, which client-go does not
	 * record either
	 */
	static long sentBodyBytes(HttpRequest request) {
		if (!(request instanceof StandardHttpRequest standard)) {
			return -1;
		}
		StandardHttpRequest.BodyContent body = standard.body();
		if (body == null) {
			return 0;
		}
		if (body instanceof StandardHttpRequest.StringBodyContent string) {
			return utf8Length(string.getContent());
		}
		if (body instanceof StandardHttpRequest.ByteArrayBodyContent bytes) {
			return bytes.getContent().length;
		}
		if (body instanceof StandardHttpRequest.InputStreamBodyContent stream && stream.getLength() >= 0) {
			return stream.getLength();
		}
		return -1;
	}

	/**
	 * The length of {@code String.getBytes(UTF_8)}, which the JDK client's
	 * {@code BodyPublishers.ofString} sends, without the copy: an unpaired surrogate
	 * becomes one '?'.
	 */
	static long utf8Length(String text) {
		long bytes = 0;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c < 0x80) {
				bytes += 1;
			}
			else if (c < 0x800) {
				bytes += 2;
			}
			else if (Character.isHighSurrogate(c) && i + 1 < text.length()
					&& Character.isLowSurrogate(text.charAt(i + 1))) {
				bytes += 4;
				i++;
			}
			else {
				bytes += Character.isSurrogate(c) ? 1 : 3;
			}
		}
		return bytes;
	}

	/** client-go's {@code host} label: the URL's host and port. */
	static String host(URI uri) {
		// getHost() keeps an IPv6 literal's brackets, as client-go's URL.Host does.
		String host = uri.getHost();
		if (host == null) {
			return "";
		}
		return (uri.getPort() >= 0) ? host + ":" + uri.getPort() : host;
	}

	static boolean isWatch(URI uri) {
		String scheme = uri.getScheme();
		if ("ws".equalsIgnoreCase(scheme) || "wss".equalsIgnoreCase(scheme)) {
			return true;
		}
		String query = uri.getRawQuery();
		if (query == null) {
			return false;
		}
		for (String parameter : query.split("&")) {
			if (parameter.equals("watch=true") || parameter.equals("watch=1")) {
				return true;
			}
		}
		return false;
	}

	/** One call: the attempts fabric8 makes for one request of its caller. */
	private static final class Call {

		private final int retryLimit;

		private final AtomicInteger attempts = new AtomicInteger();

		private volatile @Nullable Attempt current;

		/**
		 * Set once fabric8 will not retry: a later send of the same request is a call.
		 */
		private volatile boolean ended;

		private Call(int retryLimit) {
			this.retryLimit = retryLimit;
		}

		/**
		 * fabric8's ExponentialBackoffIntervalCalculator: attempt n is followed by
		 * another while n is at most the limit.
		 */
		private boolean mayRetry() {
			return this.retryLimit < 0 || this.attempts.get() <= this.retryLimit;
		}

	}

	/** One HTTP attempt. */
	private static final class Attempt {

		private final long start;

		private final @Nullable Call call;

		/** Whether it is an attempt after its call's first. */
		private final boolean retry;

		private final AtomicBoolean finished = new AtomicBoolean();

		private Attempt(long start, @Nullable Call call, boolean retry) {
			this.start = start;
			this.call = call;
			this.retry = retry;
		}

	}

	/** Counts the body bytes handed to the caller's consumer. */
	private static final class CountingConsumer implements AsyncBody.Consumer<List<ByteBuffer>> {

		private final AsyncBody.Consumer<List<ByteBuffer>> delegate;

		private final AtomicLong bytes = new AtomicLong();

		private CountingConsumer(AsyncBody.Consumer<List<ByteBuffer>> delegate) {
			this.delegate = delegate;
		}

		@Override
		public void consume(List<ByteBuffer> value, AsyncBody asyncBody) throws Exception {
			long delivered = 0;
			// Counted before the delegate reads the buffers.
			for (ByteBuffer buffer : value) {
				delivered += buffer.remaining();
			}
			this.bytes.addAndGet(delivered);
			this.delegate.consume(value, asyncBody);
		}

		@Override
		public <U> @Nullable U unwrap(Class<U> target) {
			U self = AsyncBody.Consumer.super.unwrap(target);
			return (self != null) ? self : this.delegate.unwrap(target);
		}

		private long bytes() {
			return this.bytes.get();
		}

	}

	/**
	 * Builds {@link KubernetesClientMetrics}. Example:
	 *
	 * <pre>{@code
	 * KubernetesClientMetrics clientMetrics = KubernetesClientMetrics.builder(registry, failures)
	 *     .prometheusRegistry(registry.getPrometheusRegistry())
	 *     .enable(RestClientMetric.REQUEST_SIZE, RestClientMetric.REQUEST_RETRIES)
	 *     .build();
	 * }</pre>
	 */
	public static final class Builder {

		private final MeterRegistry registry;

		private final RecordingFailures failures;

		private final Set<RestClientMetric> enabled = EnumSet.noneOf(RestClientMetric.class);

		private @Nullable PrometheusRegistry prometheusRegistry;

		private Collection<String> disabledMetrics = Set.of();

		private Map<String, String> constantLabels = Map.of();

		private Builder(MeterRegistry registry, RecordingFailures failures) {
			this.registry = registry;
			this.failures = failures;
		}

		/**
		 * Turns opt-in families on, as controller-runtime's
		 * {@code RegisterRESTClientMetrics} does.
		 * @param metrics the families
		 * @return this builder
		 */
		public Builder enable(RestClientMetric... metrics) {
			return enable(List.of(metrics));
		}

		/**
		 * Turns opt-in families on, as controller-runtime's
		 * {@code RegisterRESTClientMetrics} does.
		 * @param metrics the families
		 * @return this builder
		 */
		public Builder enable(Collection<RestClientMetric> metrics) {
			this.enabled.addAll(metrics);
			return this;
		}

		/**
		 * Where the size histograms are registered: they have native buckets, which
		 * Micrometer cannot make.
		 * @param prometheusRegistry the registry the application's Prometheus endpoint
		 * scrapes
		 * @return this builder
		 */
		public Builder prometheusRegistry(PrometheusRegistry prometheusRegistry) {
			this.prometheusRegistry = prometheusRegistry;
			return this;
		}

		/**
		 * Leaves out size histograms (the retry counter is disabled by the registry's
		 * meter filters).
		 * @param disabledMetrics Prometheus names of histograms not to register
		 * @return this builder
		 */
		public Builder disabledMetrics(Collection<String> disabledMetrics) {
			this.disabledMetrics = Set.copyOf(disabledMetrics);
			return this;
		}

		/**
		 * Gives every size histogram series labels, such as the registry's common tags.
		 * @param constantLabels the labels
		 * @return this builder
		 */
		public Builder constantLabels(Map<String, String> constantLabels) {
			this.constantLabels = Map.copyOf(constantLabels);
			return this;
		}

		/**
		 * Builds the interceptor.
		 * @return the interceptor
		 * @throws IllegalStateException if a size family is enabled without a
		 * {@link #prometheusRegistry}
		 */
		public KubernetesClientMetrics build() {
			boolean requestSize = this.enabled.contains(RestClientMetric.REQUEST_SIZE);
			boolean responseSize = this.enabled.contains(RestClientMetric.RESPONSE_SIZE);
			RestClientSizes sizes = null;
			if (requestSize || responseSize) {
				if (this.prometheusRegistry == null) {
					throw new IllegalStateException(RestClientSizes.families(this.enabled)
							+ " are native histograms registered with the application's PrometheusRegistry: give it "
							+ "with prometheusRegistry(…), such as PrometheusMeterRegistry.getPrometheusRegistry()");
				}
				sizes = new RestClientSizes(this.prometheusRegistry, requestSize, responseSize, this.disabledMetrics,
						this.constantLabels);
			}
			return new KubernetesClientMetrics(this.registry, this.failures, System::nanoTime, sizes,
					this.enabled.contains(RestClientMetric.REQUEST_RETRIES));
		}

	}

}
