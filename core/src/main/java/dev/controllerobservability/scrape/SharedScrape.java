package dev.controllerobservability.scrape;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

import io.prometheus.metrics.config.ExporterProperties;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.metrics.ScrapeFormat;
import dev.controllerobservability.internal.metrics.ScrapeWriter;
import dev.controllerobservability.internal.settings.Setting;
import dev.controllerobservability.internal.settings.SettingNames;

/**
 * A registry's scrape, rendered once for every request that arrives while it renders.
 * While a rendering of a format and set of included names is in progress, another request
 * for the same joins it and is served the same bytes; a request that arrives after it
 * finished renders anew, so no request is served data older than its arrival by more than
 * the rendering it joined. A rendering is written into fixed-size chunks and stops, its
 * chunks dropped, as soon as it passes the maximum size: every request that shared it
 * gets a {@link ScrapeTooLargeException}, and {@link ScrapeErrors} counts the refusal
 * once. Nothing recorded is touched: the next scrape under the limit holds every count.
 * Example:
 *
 * <pre>{@code
 * SharedScrape scrape = SharedScrape.builder(registry.getPrometheusRegistry(), observability.scrapeErrors())
 *     .maxSize(256L * 1024 * 1024)
 *     .build();
 * server.createContext("/metrics", ScrapeHandler.of(scrape));
 * }</pre>
 */
public final class SharedScrape {

	/** Size of the chunks a rendering is written into. */
	static final int CHUNK_SIZE = 64 * 1024;

	private final ScrapeWriter writer;

	private final ScrapeErrors errors;

	private final long maxSize;

	private final String maxSizeSetting;

	private final ConcurrentMap<Key, CompletableFuture<RenderedScrape>> inProgress = new ConcurrentHashMap<>();

	private final AtomicLong renderings = new AtomicLong();

	/**
	 * Renderings of different scrapes (formats or names) run one at a time, so that the
	 * renderings in progress hold at most one maximum size of the heap between them.
	 */
	private final ReentrantLock renderingLock = new ReentrantLock();

	private SharedScrape(Builder builder) {
		this.writer = (builder.exporter != null) ? ScrapeWriter.of(builder.registry, builder.exporter)
				: ScrapeWriter.of(builder.registry);
		this.errors = builder.errors;
		this.maxSize = builder.maxSize;
		this.maxSizeSetting = builder.settingNames.of(Setting.SCRAPE_MAX_SIZE);
	}

	/**
	 * Starts a builder.
	 * @param registry the registry whose scrape is served
	 * @param errors where refused scrapes are counted, from
	 * {@link dev.controllerobservability.ControllerObservability#scrapeErrors()}
	 * @return a builder whose maximum size is {@link #defaultMaxSize()}
	 */
	public static Builder builder(PrometheusRegistry registry, ScrapeErrors errors) {
		return new Builder(registry, errors);
	}

	/**
	 * The maximum size of a scrape unless one is set: a quarter of the JVM's maximum
	 * heap. Two renderings of that size in flight (two formats asked at once) still leave
	 * half the heap to the controller; a scrape of a normal controller is a few
	 * megabytes.
	 * @return the default, in bytes
	 */
	public static long defaultMaxSize() {
		return Runtime.getRuntime().maxMemory() / 4;
	}

	/**
	 * Serves a scrape: joins the rendering in progress for the same format and names, or
	 * renders one.
	 * @param format the format
	 * @param includedNames the metric names to include, or {@code null} for all
	 * @return the rendered scrape
	 * @throws ScrapeTooLargeException if the rendering passed the maximum size
	 * @throws IOException if the rendering failed, or the wait for it was interrupted
	 */
	public RenderedScrape scrape(ScrapeFormat format, @Nullable Set<String> includedNames) throws IOException {
		Key key = new Key(format, (includedNames != null) ? Set.copyOf(includedNames) : null);
		CompletableFuture<RenderedScrape> mine = new CompletableFuture<>();
		CompletableFuture<RenderedScrape> running = this.inProgress.putIfAbsent(key, mine);
		if (running != null) {
			return join(running);
		}
		try {
			RenderedScrape rendered = render(key);
			// Gone from the map before it completes: a later request renders anew.
			this.inProgress.remove(key, mine);
			mine.complete(rendered);
			return rendered;
		}
		catch (Throwable ex) {
			this.inProgress.remove(key, mine);
			mine.completeExceptionally(ex);
			throw ex;
		}
	}

	/**
	 * Number of renderings started since this scrape was built; requests that joined one
	 * are not counted.
	 * @return the count
	 */
	public long renderings() {
		return this.renderings.get();
	}

	/**
	 * The maximum size of a scrape.
	 * @return the limit, in bytes
	 */
	public long maxSize() {
		return this.maxSize;
	}

	private RenderedScrape render(Key key) throws IOException {
		try {
			this.renderingLock.lockInterruptibly();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			InterruptedIOException interrupted = new InterruptedIOException("Interrupted waiting to render a scrape");
			interrupted.initCause(ex);
			throw interrupted;
		}
		try {
			return renderAlone(key);
		}
		finally {
			this.renderingLock.unlock();
		}
	}

	private RenderedScrape renderAlone(Key key) throws IOException {
		this.renderings.incrementAndGet();
		ChunkedOutputStream out = new ChunkedOutputStream(CHUNK_SIZE, this.maxSize);
		Predicate<String> names = (key.includedNames() != null) ? key.includedNames()::contains : (name) -> true;
		try {
			this.writer.write(key.format(), names, out);
		}
		catch (IOException | RuntimeException ex) {
			if (out.reached() < 0) {
				throw ex;
			}
			out.free();
			this.errors.countTooLarge();
			throw new ScrapeTooLargeException(this.maxSize, out.reached(), this.maxSizeSetting);
		}
		return out.rendered(key.format().contentType());
	}

	private static RenderedScrape join(CompletableFuture<RenderedScrape> running) throws IOException {
		try {
			return running.get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			InterruptedIOException interrupted = new InterruptedIOException("Interrupted waiting for a shared scrape");
			interrupted.initCause(ex);
			throw interrupted;
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof ScrapeTooLargeException tooLarge) {
				// Each request gets its own exception: one thrown from many threads
				// would collect suppressed exceptions from all of them.
				throw new ScrapeTooLargeException(tooLarge.getMaxSize(), tooLarge.getReachedSize(), tooLarge.setting());
			}
			if (cause instanceof IOException io) {
				throw new IOException(io.getMessage(), io);
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw new UncheckedIOException(new IOException("The shared scrape failed", cause));
		}
	}

	private record Key(ScrapeFormat format, @Nullable Set<String> includedNames) {
	}

	/**
	 * Builds a {@link SharedScrape}.
	 */
	public static final class Builder {

		private final PrometheusRegistry registry;

		private final ScrapeErrors errors;

		private long maxSize = defaultMaxSize();

		private SettingNames settingNames = SettingNames.BUILDER;

		private @Nullable ExporterProperties exporter;

		private Builder(PrometheusRegistry registry, ScrapeErrors errors) {
			this.registry = Objects.requireNonNull(registry,
					"SharedScrape.builder(null, …): pass the registry to scrape, such as "
							+ "PrometheusMeterRegistry.getPrometheusRegistry()");
			this.errors = Objects.requireNonNull(errors,
					"SharedScrape.builder(…, null): pass ControllerObservability.scrapeErrors()");
		}

		/**
		 * Sets the largest scrape served, in bytes: a rendering that passes it is refused
		 * and counted. Default: {@link #defaultMaxSize()}.
		 * @param bytes the maximum size, more than 0
		 * @return this builder
		 * @throws dev.controllerobservability.InvalidSettingException if it is 0 or less
		 */
		public Builder maxSize(long bytes) {
			if (bytes <= 0) {
				throw Setting.SCRAPE_MAX_SIZE.refuse(bytes, "a scrape's maximum size must be more than 0 bytes",
						"Set it above the size of a whole scrape, such as 268435456 (256 MB), or leave it out for a "
								+ "quarter of the maximum heap");
			}
			this.maxSize = bytes;
			return this;
		}

		/**
		 * Sets the exporter properties the scrape is written with (created timestamps,
		 * exemplars, timestamps in milliseconds). Default: those prometheus-metrics loads
		 * from its own configuration ({@code prometheus.properties} and system
		 * properties).
		 * @param exporter the exporter properties
		 * @return this builder
		 */
		public Builder exporterProperties(ExporterProperties exporter) {
			this.exporter = Objects.requireNonNull(exporter,
					"SharedScrape.Builder.exporterProperties(null): pass PrometheusProperties.get().getExporterProperties() "
							+ "or leave it out");
			return this;
		}

		/**
		 * Sets how a refusal names the maximum size: the builder method, or the Spring
		 * Boot property.
		 * @param settingNames the path that set it
		 * @return this builder
		 */
		public Builder settingNames(SettingNames settingNames) {
			this.settingNames = Objects.requireNonNull(settingNames, "settingNames");
			return this;
		}

		/**
		 * Builds the shared scrape.
		 * @return the shared scrape
		 */
		public SharedScrape build() {
			return new SharedScrape(this);
		}

	}

}
