package dev.controllerobservability.benchmarks;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.context.ConfigurableApplicationContext;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.catalog.ObjectRef;
import dev.controllerobservability.catalog.MetricHistogram;
import dev.controllerobservability.internal.metrics.BucketRules;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.NativeHistogram;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.operations.OperationHandle;

/**
 * Timing one operation (trivial work) with each way a controller could record it, the
 * label value cycling over 50 provisioners:
 * <ul>
 * <li>A: a hand-written Micrometer timer, built and registered per call (and A0: the same
 * timer cached, what any Micrometer timer costs at least);</li>
 * <li>B: stock {@code Observation} with Micrometer's default meter handler;</li>
 * <li>C: {@code ControllerOperations.observe} of this starter, as auto-configured (and
 * C0: the same through the observation, as before the direct path; C′: with a fresh
 * {@code Tags.of(...)} on every call, as the README writes it);</li>
 * <li>D: {@code @ObservedOperation} through the Spring proxy;</li>
 * <li>E: a pre-bound {@code OperationHandle};</li>
 * <li>CP, C′P and EP: C, C′ and E with
 * {@code controller.observability.operations.backend=prometheus} (durations recorded
 * straight into prometheus-metrics-core histograms with native buckets);</li>
 * <li>F: the floor: a prometheus-metrics-core histogram data point, classic buckets only,
 * cached per label value (and FN: the same with prometheus-metrics-core's native buckets;
 * FS: the starter's own histogram with classic and native buckets, which the prometheus
 * backend records into);</li>
 * <li>G: a catalog counter increment, the counter looked up by name and labels on every
 * call (the starter caches the series per label set), and G0: a cached Micrometer counter
 * beside it;</li>
 * <li>H: a value observed into a declared ratio histogram, exact on the
 * {@code PrometheusMeterRegistry} (its series held, as a controller holds a handle), and
 * H0: a cached Micrometer {@code DistributionSummary} of the same buckets, which rounds
 * the value up before it picks its bucket.</li>
 * </ul>
 * Every timed variant reads the clock twice, so they differ only by what recording costs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = { "-Xmx1g", "-Djava.awt.headless=true" })
public class RecordingBenchmark {

	static final int PROVISIONERS = 50;

	/** The buckets of the declared ratio histogram and of the summary beside it. */
	static final String RATIO_BUCKETS = "0.25,0.5,0.75,0.9,1";

	/** A ratio per provisioner, spread over the buckets. */
	private static final double[] RATIOS = new double[PROVISIONERS];

	static {
		for (int i = 0; i < PROVISIONERS; i++) {
			RATIOS[i] = (i + 1) / (double) PROVISIONERS;
		}
	}

	private static final Object RESULT = new Object();

	private static final Supplier<Object> WORK = () -> RESULT;

	private final Tags[] tags = new Tags[PROVISIONERS];

	private final String[] names = new String[PROVISIONERS];

	private final OperationHandle[] handles = new OperationHandle[PROVISIONERS];

	private final DistributionDataPoint[] floor = new DistributionDataPoint[PROVISIONERS];

	private final DistributionDataPoint[] nativeFloor = new DistributionDataPoint[PROVISIONERS];

	private final NativeHistogram.DataPoint[] starterFloor = new NativeHistogram.DataPoint[PROVISIONERS];

	private final Counter[] cachedCounters = new Counter[PROVISIONERS];

	/** One object per provisioner, for the per-object metrics. */
	private final ObjectRef[] objects = new ObjectRef[PROVISIONERS];

	private final MetricHistogram[] catalogHistograms = new MetricHistogram[PROVISIONERS];

	private final DistributionSummary[] cachedSummaries = new DistributionSummary[PROVISIONERS];

	private final Timer[] cachedTimers = new Timer[PROVISIONERS];

	private final Duration[] buckets = BucketRules.durations(MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS);

	private ConfigurableApplicationContext context;

	private ControllerOperations operations;

	private ControllerOperations observedOperations;

	private ControllerOperations prometheusOperations;

	private final OperationHandle[] prometheusHandles = new OperationHandle[PROVISIONERS];

	private BenchmarkApplication.ObservedBinder binder;

	private ControllerMetrics metrics;

	private PrometheusMeterRegistry stock;

	private ObservationRegistry stockObservations;

	@Setup
	public void setUp() {
		this.context = BenchmarkApplication.start(Map.of());
		this.operations = this.context.getBean(ControllerOperations.class);
		if (!this.operations.isRecordingDirectly()) {
			throw new IllegalStateException("The auto-configured operations should record directly");
		}
		this.observedOperations = BenchmarkApplication
			.start(Map.of("spring.application.name", "observed", "controller.observability.operations.direct-recording",
					"false"))
			.getBean(ControllerOperations.class);
		this.prometheusOperations = BenchmarkApplication
			.start(Map.of("spring.application.name", "prometheus", "controller.observability.operations.backend",
					"prometheus"))
			.getBean(ControllerOperations.class);
		if (!this.prometheusOperations.isRecordingDirectly()) {
			throw new IllegalStateException("The prometheus backend should record directly");
		}
		this.binder = this.context.getBean(BenchmarkApplication.ObservedBinder.class);
		this.metrics = this.context.getBean(ControllerMetrics.class);
		if (!(this.context.getBean(MeterRegistry.class) instanceof PrometheusMeterRegistry)) {
			throw new IllegalStateException("Declared histograms are exact on a PrometheusMeterRegistry only");
		}
		this.stock = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		this.stockObservations = ObservationRegistry.create();
		this.stockObservations.observationConfig().observationHandler(new DefaultMeterObservationHandler(this.stock));
		PrometheusRegistry floorRegistry = new PrometheusRegistry();
		Histogram histogram = Histogram.builder()
			.name("floor_bind_duration_seconds")
			.help("Floor.")
			.labelNames("provisioner")
			.classicUpperBounds(MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS.stream()
				.mapToDouble(Double::doubleValue)
				.toArray())
			.classicOnly()
			.register(floorRegistry);
		Histogram nativeHistogram = Histogram.builder()
			.name("floor_native_bind_duration_seconds")
			.help("Floor.")
			.labelNames("provisioner")
			.classicUpperBounds(MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS.stream()
				.mapToDouble(Double::doubleValue)
				.toArray())
			.nativeInitialSchema(NativeHistogram.SCHEMA)
			.nativeMaxNumberOfBuckets(NativeHistogram.MAX_BUCKETS)
			.nativeResetDuration(1, TimeUnit.HOURS)
			.withoutExemplars()
			.register(floorRegistry);
		NativeHistogram starterHistogram = NativeHistogram
			.builder("floor_starter_bind_duration_seconds", "Floor.",
					MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS)
			.labelNames("provisioner")
			.build();
		floorRegistry.register(starterHistogram);
		for (int i = 0; i < PROVISIONERS; i++) {
			this.names[i] = "provisioner-" + i;
			this.tags[i] = Tags.of("provisioner", this.names[i]);
			this.handles[i] = this.operations.bind("bind", this.tags[i]);
			this.prometheusHandles[i] = this.prometheusOperations.bind("bind", this.tags[i]);
			this.floor[i] = histogram.labelValues(this.names[i]);
			this.nativeFloor[i] = nativeHistogram.labelValues(this.names[i]);
			this.starterFloor[i] = starterHistogram.labelValues(this.names[i]);
			this.cachedCounters[i] = Counter.builder("cached.pods.bound").tags(this.tags[i]).register(this.stock);
			this.objects[i] = ObjectRef.of("default", this.names[i]);
			this.catalogHistograms[i] = this.metrics.histogram("packing_efficiency_ratio", "provisioner",
					this.names[i]);
			this.cachedSummaries[i] = DistributionSummary.builder("cached.packing.efficiency")
				.tags(this.tags[i])
				.serviceLevelObjectives(
						Arrays.stream(RATIO_BUCKETS.split(",")).mapToDouble(Double::parseDouble).toArray())
				.register(this.stock);
			this.cachedTimers[i] = Timer.builder("cached.bind.duration")
				.tags(this.tags[i])
				.serviceLevelObjectives(this.buckets)
				.register(this.stock);
		}
	}

	@TearDown
	public void tearDown() {
		this.context.close();
	}

	@Benchmark
	public Object a_handWrittenTimer(Cursor cursor) {
		int i = cursor.next();
		long start = System.nanoTime();
		Object result = WORK.get();
		Timer.builder("hand.bind.duration")
			.tags(this.tags[i])
			.serviceLevelObjectives(this.buckets)
			.register(this.stock)
			.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
		return result;
	}

	@Benchmark
	public Object a0_cachedMicrometerTimer(Cursor cursor) {
		int i = cursor.next();
		long start = System.nanoTime();
		Object result = WORK.get();
		this.cachedTimers[i].record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
		return result;
	}

	@Benchmark
	public Object b_stockObservation(Cursor cursor) {
		return Observation.createNotStarted("stock.bind", this.stockObservations)
			.lowCardinalityKeyValue("provisioner", this.names[cursor.next()])
			.observe(WORK);
	}

	@Benchmark
	public Object c_operationsObserve(Cursor cursor) {
		return this.operations.observe("bind", this.tags[cursor.next()], WORK);
	}

	@Benchmark
	public Object c1_operationsObserveFreshTags(Cursor cursor) {
		return this.operations.observe("bind", Tags.of("provisioner", this.names[cursor.next()]), WORK);
	}

	@Benchmark
	public Object cp_operationsObservePrometheus(Cursor cursor) {
		return this.prometheusOperations.observe("bind", this.tags[cursor.next()], WORK);
	}

	@Benchmark
	public Object cp1_operationsObservePrometheusFreshTags(Cursor cursor) {
		return this.prometheusOperations.observe("bind", Tags.of("provisioner", this.names[cursor.next()]), WORK);
	}

	@Benchmark
	public Object c0_operationsObserveThroughObservation(Cursor cursor) {
		return this.observedOperations.observe("bind", this.tags[cursor.next()], WORK);
	}

	@Benchmark
	public Object d_observedOperationAnnotation(Cursor cursor) {
		return this.binder.bind(this.names[cursor.next()]);
	}

	@Benchmark
	public Object e_preBoundHandle(Cursor cursor) {
		return this.handles[cursor.next()].observe(WORK);
	}

	@Benchmark
	public Object ep_preBoundHandlePrometheus(Cursor cursor) {
		return this.prometheusHandles[cursor.next()].observe(WORK);
	}

	@Benchmark
	public Object f_prometheusHistogramFloor(Cursor cursor) {
		int i = cursor.next();
		long start = System.nanoTime();
		Object result = WORK.get();
		this.floor[i].observe((System.nanoTime() - start) / 1e9);
		return result;
	}

	@Benchmark
	public Object fn_prometheusNativeHistogramFloor(Cursor cursor) {
		int i = cursor.next();
		long start = System.nanoTime();
		Object result = WORK.get();
		this.nativeFloor[i].observe((System.nanoTime() - start) / 1e9);
		return result;
	}

	@Benchmark
	public Object fs_starterNativeHistogram(Cursor cursor) {
		int i = cursor.next();
		long start = System.nanoTime();
		Object result = WORK.get();
		this.starterFloor[i].observe((System.nanoTime() - start) / 1e9);
		return result;
	}

	@Benchmark
	public void g_catalogCounter(Cursor cursor) {
		this.metrics.counter("pods_bound_total", "provisioner", this.names[cursor.next()]).increment();
	}

	@Benchmark
	public void g_cachedMicrometerCounter(Cursor cursor) {
		this.cachedCounters[cursor.next()].increment();
	}

	@Benchmark
	public void h_catalogHistogram(Cursor cursor) {
		int i = cursor.next();
		this.catalogHistograms[i].observe(RATIOS[i]);
	}

	@Benchmark
	public void h0_cachedMicrometerDistributionSummary(Cursor cursor) {
		int i = cursor.next();
		this.cachedSummaries[i].record(RATIOS[i]);
	}

	@Benchmark
	public void o_perObjectCounter(Cursor cursor) {
		this.metrics.counter("object_renewals_total", this.objects[cursor.next()], "result", "ok").increment();
	}

	@Benchmark
	public void o0_catalogCounterOfThreeLabels(Cursor cursor) {
		this.metrics
			.counter("renewals_total", "namespace", "default", "name", this.names[cursor.next()], "result", "ok")
			.increment();
	}

	/**
	 * Forgets an object with a series in three per-object metrics, then records the three
	 * anew: the cost of an object that comes and goes.
	 */
	@Benchmark
	public int of_forgetObjectAndRecordItAgain(Cursor cursor) {
		int i = cursor.next();
		ObjectRef object = this.objects[i];
		int removed = this.metrics.forget(object);
		this.metrics.counter("object_renewals_total", object, "result", "ok").increment();
		this.metrics.gauge("object_ready_status", object).set(1);
		this.metrics.gauge("object_generation", object).set(i);
		return removed;
	}

	/**
	 * Each benchmark thread's position in the 50 provisioners.
	 */
	@State(Scope.Thread)
	public static class Cursor {

		private int next;

		int next() {
			int current = this.next;
			this.next = (current + 1 == PROVISIONERS) ? 0 : current + 1;
			return current;
		}

	}

}
