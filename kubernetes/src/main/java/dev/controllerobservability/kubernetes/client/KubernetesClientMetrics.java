package dev.controllerobservability.kubernetes.client;

import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.impl.KubernetesClientImpl;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import dev.controllerobservability.internal.kubernetes.KubernetesConventions;
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
 * It is a fabric8 {@link Interceptor}. Clients the application builds itself are
 * instrumented with one line:
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

	private final MeterRegistry registry;

	private final RecordingFailures failures;

	private final LongSupplier nanoTime;

	private static final Duration[] BUCKETS = BucketRules.durations(KubernetesConventions.CLIENT_GO_LATENCY_BUCKETS);

	/**
	 * Start times by the request object fabric8 sends; weak, so a lost response leaks
	 * nothing.
	 */
	private final Map<HttpRequest, Long> started = Collections.synchronizedMap(new WeakHashMap<>());

	private final Map<List<String>, Counter> counters = new ConcurrentHashMap<>();

	private final Map<List<String>, Timer> timers = new ConcurrentHashMap<>();

	/**
	 * Creates the interceptor.
	 * @param registry where the {@code rest_client_*} meters are registered
	 * @param failures where recording failures go
	 */
	public KubernetesClientMetrics(MeterRegistry registry, RecordingFailures failures) {
		this(registry, failures, System::nanoTime);
	}

	KubernetesClientMetrics(MeterRegistry registry, RecordingFailures failures, LongSupplier nanoTime) {
		this.registry = registry;
		this.failures = failures;
		this.nanoTime = nanoTime;
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
	 * Adds this interceptor to an HTTP client builder.
	 * @param builder fabric8's HTTP client builder
	 */
	public void customize(HttpClient.DerivedClientBuilder builder) {
		builder.addOrReplaceInterceptor(INTERCEPTOR_NAME, this);
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
	public AsyncBody.Consumer<List<ByteBuffer>> consumer(AsyncBody.Consumer<List<ByteBuffer>> consumer,
			HttpRequest request) {
		// Called with the request exactly as sent, after every interceptor's before().
		try {
			if (!isWatch(request.uri())) {
				this.started.put(request, this.nanoTime.getAsLong());
			}
		}
		catch (RuntimeException ex) {
			this.failures.record("time a Kubernetes API call", ex);
		}
		return consumer;
	}

	@Override
	public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
		try {
			long end = this.nanoTime.getAsLong();
			String host = host(request.uri());
			count(Integer.toString(response.code()), request.method(), host);
			Long start = this.started.remove(request);
			if (start != null) {
				timer(request.method(), host).record(end - start, TimeUnit.NANOSECONDS);
			}
		}
		catch (RuntimeException ex) {
			this.failures.record("count a Kubernetes API call", ex);
		}
	}

	@Override
	public void afterConnectionFailure(HttpRequest request, Throwable failure) {
		try {
			count(KubernetesConventions.NO_RESPONSE_CODE, request.method(), host(request.uri()));
		}
		catch (RuntimeException ex) {
			this.failures.record("count a failed Kubernetes API call", ex);
		}
	}

	private void count(String code, String method, String host) {
		this.counters
			.computeIfAbsent(List.of(code, method, host),
					(key) -> Counter.builder(REQUESTS)
						.description("Number of HTTP requests, partitioned by status code, method, and host.")
						.tag("code", code)
						.tag("method", method)
						.tag("host", host)
						.register(this.registry))
			.increment();
	}

	private Timer timer(String verb, String host) {
		return this.timers.computeIfAbsent(List.of(verb, host),
				(key) -> Timer.builder(DURATION)
					.description("Request latency in seconds. Broken down by verb, and host.")
					.tag("verb", verb)
					.tag("host", host)
					.serviceLevelObjectives(BUCKETS)
					.register(this.registry));
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

}
