package dev.controllerobservability.scrape;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.internal.metrics.ScrapeFormat;
import dev.controllerobservability.internal.metrics.ScrapeWriter;
import dev.controllerobservability.internal.settings.SettingNames;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A shared scrape renders once for the requests that arrive while it renders, serves
 * every format and name filter as the writer writes it, and refuses, counts and drops a
 * rendering that passes its maximum size.
 */
class SharedScrapeTests {

	private static final int REQUESTS = 8;

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final ScrapeErrors errors = ScrapeErrors.register(this.meters, "karpenter");

	private final PrometheusRegistry registry = new PrometheusRegistry();

	private final ExecutorService executor = Executors.newFixedThreadPool(REQUESTS);

	@AfterEach
	void stop() {
		this.executor.shutdownNow();
	}

	@Test
	void requestsArrivingWhileARenderingRunsJoinItAndGetItsBytes() throws Exception {
		BlockingCollector collector = new BlockingCollector("pods", 1);
		this.registry.register(collector);
		SharedScrape scrape = SharedScrape.builder(this.registry, this.errors).build();
		List<Thread> threads = new ArrayList<>();
		List<Future<RenderedScrape>> responses = new ArrayList<>();
		for (int i = 0; i < REQUESTS; i++) {
			responses.add(this.executor.submit(() -> {
				threads.add(Thread.currentThread());
				return scrape.scrape(ScrapeFormat.PROMETHEUS_TEXT, null);
			}));
		}
		awaitAllWaiting(collector, threads);
		collector.release.countDown();
		List<String> bodies = new ArrayList<>();
		for (Future<RenderedScrape> response : responses) {
			bodies.add(text(response.get()));
		}
		assertThat(collector.collections).hasValue(1);
		assertThat(scrape.renderings()).isEqualTo(1);
		assertThat(bodies).hasSize(REQUESTS).allSatisfy((body) -> assertThat(body).isEqualTo(bodies.get(0)));
		assertThat(Exposition.parse(bodies.get(0)).samples()).hasSize(1)
			.allSatisfy((sample) -> assertThat(sample.name()).isEqualTo("pods_total"));
	}

	@Test
	void aRequestArrivingAfterARenderingFinishedRendersAnew() throws IOException {
		Counter pods = Counter.builder().name("pods").help("Pods.").register(this.registry);
		SharedScrape scrape = SharedScrape.builder(this.registry, this.errors).build();
		pods.inc();
		String first = text(scrape.scrape(ScrapeFormat.PROMETHEUS_TEXT, null));
		pods.inc();
		String second = text(scrape.scrape(ScrapeFormat.PROMETHEUS_TEXT, null));
		assertThat(scrape.renderings()).isEqualTo(2);
		assertThat(Exposition.parse(first).samples()).anyMatch((sample) -> sample.value() == 1.0);
		assertThat(Exposition.parse(second).samples()).anyMatch((sample) -> sample.value() == 2.0);
	}

	@Test
	void requestsForOtherNamesOrFormatsDoNotShareARendering() throws IOException {
		Counter.builder().name("pods").help("Pods.").register(this.registry);
		Counter.builder().name("nodes").help("Nodes.").register(this.registry);
		SharedScrape scrape = SharedScrape.builder(this.registry, this.errors).build();
		String pods = text(scrape.scrape(ScrapeFormat.PROMETHEUS_TEXT, Set.of("pods")));
		String nodes = text(scrape.scrape(ScrapeFormat.PROMETHEUS_TEXT, Set.of("nodes")));
		assertThat(Exposition.parse(pods).samples()).extracting("name").containsExactly("pods_total");
		assertThat(Exposition.parse(nodes).samples()).extracting("name").containsExactly("nodes_total");
		assertThat(scrape.renderings()).isEqualTo(2);
	}

	@Test
	void renderingsOfDifferentScrapesRunOneAtATime() throws Exception {
		BlockingCollector collector = new BlockingCollector("pods", 1);
		this.registry.register(collector);
		SharedScrape scrape = SharedScrape.builder(this.registry, this.errors).build();
		Future<RenderedScrape> text = this.executor.submit(() -> scrape.scrape(ScrapeFormat.PROMETHEUS_TEXT, null));
		await().until(() -> collector.collections.get() == 1);
		List<Thread> waiting = new CopyOnWriteArrayList<>();
		List<Future<RenderedScrape>> others = List.of(this.executor.submit(() -> {
			waiting.add(Thread.currentThread());
			return scrape.scrape(ScrapeFormat.OPENMETRICS_TEXT, null);
		}), this.executor.submit(() -> {
			waiting.add(Thread.currentThread());
			return scrape.scrape(ScrapeFormat.PROMETHEUS_TEXT, Set.of("pods"));
		}));
		// Parked, whether on the rendering in progress or, if they rendered at once, in
		// a collection of their own: then the collector would have counted them.
		await().until(() -> waiting.size() == 2
				&& waiting.stream().allMatch((thread) -> thread.getState() == Thread.State.WAITING));
		assertThat(collector.collections).hasValue(1);
		assertThat(scrape.renderings()).isEqualTo(1);
		collector.release.countDown();
		assertThat(text(text.get())).contains("pods_total");
		for (Future<RenderedScrape> other : others) {
			assertThat(text(other.get())).contains("pods_total");
		}
		assertThat(scrape.renderings()).isEqualTo(3);
		assertThat(collector.collections).hasValue(3);
	}

	@ParameterizedTest
	@EnumSource(ScrapeFormat.class)
	void servesEachFormatAsTheWriterWritesItAcrossChunks(ScrapeFormat format) throws IOException {
		Counter pods = Counter.builder().name("pods").help("Pods.").labelNames("pod").register(this.registry);
		for (int i = 0; i < 5000; i++) {
			pods.labelValues("pod-" + i).inc(i);
		}
		SharedScrape scrape = SharedScrape.builder(this.registry, this.errors).build();
		RenderedScrape rendered = scrape.scrape(format, null);
		ByteArrayOutputStream expected = new ByteArrayOutputStream();
		ScrapeWriter.of(this.registry).write(format, (name) -> true, expected);
		assertThat(rendered.size()).isEqualTo(expected.size()).isGreaterThan(2L * SharedScrape.CHUNK_SIZE);
		assertThat(bytes(rendered)).isEqualTo(expected.toByteArray());
		assertThat(rendered.inputStream().readAllBytes()).isEqualTo(expected.toByteArray());
		assertThat(rendered.contentType()).isEqualTo(format.contentType());
	}

	@Test
	void includedNamesLeaveOutEveryOtherFamily() throws IOException {
		Counter.builder().name("pods").help("Pods.").register(this.registry).inc(3);
		Counter.builder().name("nodes").help("Nodes.").register(this.registry);
		SharedScrape scrape = SharedScrape.builder(this.registry, this.errors).build();
		Exposition exposition = Exposition.parse(text(scrape.scrape(ScrapeFormat.PROMETHEUS_TEXT, Set.of("pods"))));
		assertThat(exposition.samples()).singleElement()
			.satisfies((sample) -> assertThat(sample.name()).isEqualTo("pods_total"))
			.satisfies((sample) -> assertThat(sample.value()).isEqualTo(3.0));
	}

	@Test
	void aRenderingPastTheMaximumIsRefusedNamingTheLimitTheSizeAndTheFix() throws IOException {
		Counter pods = Counter.builder().name("pods").help("Pods.").labelNames("pod").register(this.registry);
		for (int i = 0; i < 2000; i++) {
			pods.labelValues("pod-" + i).inc();
		}
		Counter.builder().name("nodes").help("Nodes.").register(this.registry).inc(2);
		SharedScrape scrape = SharedScrape.builder(this.registry, this.errors).maxSize(10_000).build();
		assertThatExceptionOfType(ScrapeTooLargeException.class)
			.isThrownBy(() -> scrape.scrape(ScrapeFormat.PROMETHEUS_TEXT, null))
			.satisfies((ex) -> {
				assertThat(ex.getMaxSize()).isEqualTo(10_000);
				assertThat(ex.getReachedSize()).isGreaterThan(10_000);
				assertThat(ex.getMessage()).isEqualTo("The scrape was refused: it passed its maximum size of 10000 "
						+ "bytes (SharedScrape.Builder.maxSize(…)) at " + ex.getReachedSize() + " bytes. Raise "
						+ "SharedScrape.Builder.maxSize(…) above the size of a whole scrape, or expose fewer series.");
			});
		assertThat(this.errors.tooLarge()).isEqualTo(1);
		assertThat(
				this.meters.get("karpenter.observability.scrape.errors").tag("reason", "too_large").counter().count())
			.isEqualTo(1);
		// The next scrape under the limit is served, with what was recorded before.
		String nodes = text(scrape.scrape(ScrapeFormat.PROMETHEUS_TEXT, Set.of("nodes")));
		assertThat(Exposition.parse(nodes).samples()).singleElement()
			.satisfies((sample) -> assertThat(sample.value()).isEqualTo(2.0));
		assertThat(this.errors.tooLarge()).isEqualTo(1);
	}

	@Test
	void everyRequestSharingARefusedRenderingIsRefusedAndTheRefusalCountedOnce() throws Exception {
		BlockingCollector collector = new BlockingCollector("pods", 2000);
		this.registry.register(collector);
		SharedScrape scrape = SharedScrape.builder(this.registry, this.errors).maxSize(10_000).build();
		List<Thread> threads = new ArrayList<>();
		List<Future<Throwable>> responses = new ArrayList<>();
		for (int i = 0; i < REQUESTS; i++) {
			responses.add(this.executor.submit(() -> {
				threads.add(Thread.currentThread());
				try {
					scrape.scrape(ScrapeFormat.PROMETHEUS_TEXT, null);
					return null;
				}
				catch (ScrapeTooLargeException ex) {
					return ex;
				}
			}));
		}
		awaitAllWaiting(collector, threads);
		collector.release.countDown();
		for (Future<Throwable> response : responses) {
			assertThat(response.get()).isInstanceOf(ScrapeTooLargeException.class)
				.hasMessageContaining("maximum size of 10000 bytes");
		}
		assertThat(collector.collections).hasValue(1);
		assertThat(this.errors.tooLarge()).isEqualTo(1);
	}

	@Test
	void aRefusedRenderingDropsItsChunks() throws IOException {
		ChunkedOutputStream out = new ChunkedOutputStream(1024, 4096);
		out.write(new byte[4000]);
		assertThat(out.chunkCount()).isEqualTo(4);
		assertThatExceptionOfType(ChunkedOutputStream.TooLarge.class).isThrownBy(() -> out.write(new byte[200]));
		assertThat(out.chunkCount()).isZero();
		assertThat(out.reached()).isEqualTo(4200);
		assertThatExceptionOfType(ChunkedOutputStream.TooLarge.class).isThrownBy(() -> out.write(1));
		assertThat(out.chunkCount()).isZero();
	}

	@Test
	void onTheSpringPathTheRefusalNamesTheProperty() {
		Counter.builder().name("pods").help("Pods.").register(this.registry);
		SharedScrape scrape = SharedScrape.builder(this.registry, this.errors)
			.maxSize(10)
			.settingNames(SettingNames.PROPERTIES)
			.build();
		assertThatExceptionOfType(ScrapeTooLargeException.class)
			.isThrownBy(() -> scrape.scrape(ScrapeFormat.PROMETHEUS_TEXT, null))
			.withMessageContaining("maximum size of 10 bytes (controller.observability.scrape.max-size)")
			.withMessageContaining("Raise controller.observability.scrape.max-size above");
	}

	@Test
	void refusesAMaximumSizeOfZeroNamingTheBuilderMethod() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> SharedScrape.builder(this.registry, this.errors).maxSize(0))
			.withMessageStartingWith("SharedScrape.Builder.maxSize(…) = 0: a scrape's maximum size must be more than 0")
			.satisfies((ex) -> assertThat(ex.getProperty()).isEqualTo("scrape.max-size"));
	}

	@Test
	void theDefaultMaximumIsAQuarterOfTheMaximumHeap() {
		assertThat(SharedScrape.builder(this.registry, this.errors).build().maxSize())
			.isEqualTo(Runtime.getRuntime().maxMemory() / 4);
	}

	/**
	 * Waits until one thread collects (blocked) and every other waits for its rendering.
	 */
	private static void awaitAllWaiting(BlockingCollector collector, List<Thread> threads) {
		await().until(() -> collector.collections.get() == 1 && threads.size() == REQUESTS
				&& threads.stream().allMatch((thread) -> thread.getState() == Thread.State.WAITING));
	}

	private static byte[] bytes(RenderedScrape rendered) throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		rendered.writeTo(out);
		return out.toByteArray();
	}

	private static String text(RenderedScrape rendered) throws IOException {
		try (InputStream in = rendered.inputStream()) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

	/** A counter family of {@code series} series whose collection waits for a release. */
	private static final class BlockingCollector implements io.prometheus.metrics.model.registry.Collector {

		final CountDownLatch release = new CountDownLatch(1);

		final AtomicInteger collections = new AtomicInteger();

		private final String name;

		private final int series;

		BlockingCollector(String name, int series) {
			this.name = name;
			this.series = series;
		}

		@Override
		public MetricSnapshot collect() {
			this.collections.incrementAndGet();
			try {
				this.release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			CounterSnapshot.Builder snapshot = CounterSnapshot.builder().name(this.name).help("Pods.");
			for (int i = 0; i < this.series; i++) {
				snapshot.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
					.labels(io.prometheus.metrics.model.snapshots.Labels.of("pod", "pod-" + i))
					.value(i)
					.build());
			}
			return snapshot.build();
		}

		@Override
		public String getPrometheusName() {
			return this.name;
		}

	}

}
