package dev.controllerobservability.internal.operations;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.metrics.ClaimedFamilies;
import dev.controllerobservability.internal.metrics.NamingPolicy;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.NativeHistogram;
import dev.controllerobservability.internal.metrics.WindowMax;
import dev.controllerobservability.stability.StabilityLevel;
import dev.controllerobservability.operations.OperationDescriptor;

/**
 * Operation durations recorded straight into Prometheus histograms, with the classic
 * buckets of the Micrometer backend plus native buckets ({@link NativeHistogram}),
 * registered with the application's {@link PrometheusRegistry}. A duration costs one
 * data-point observation, which allocates nothing: the floor Micrometer's timer cannot
 * reach.
 * <p>
 * What applies: the namespace, the common tags (as constant labels; an operation label of
 * the same key wins), the default and per-operation buckets, and the disabled metrics.
 * What does not: other Micrometer registries, Micrometer meter filters and
 * {@code management.metrics.distribution.*}. The {@code _max} gauge is kept only for BETA
 * and STABLE operations, whose contract includes it ({@link WindowMax}).
 */
public final class PrometheusDurations implements OperationDurations {

	private final PrometheusRegistry registry;

	private final Clock clock;

	private final NamingPolicy naming;

	private final ClaimedFamilies claimed;

	private final Map<String, Family> families = new ConcurrentHashMap<>();

	/**
	 * Creates the backend.
	 * @param registry where the histograms are registered
	 * @param clock the clock the {@code _max} window turns by
	 * @param naming the constant labels, default buckets and disabled metrics of
	 * controller metrics
	 * @param claimed where the families are claimed, so that the meter filter denies
	 * Micrometer meters of their names
	 */
	public PrometheusDurations(PrometheusRegistry registry, Clock clock, NamingPolicy naming, ClaimedFamilies claimed) {
		this.registry = registry;
		this.clock = clock;
		this.naming = naming;
		this.claimed = claimed;
	}

	@Override
	public Recorder register(OperationDescriptor descriptor, Tags labels, String result, String error) {
		return family(descriptor).series(labels, result, error, false);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The recorder counts its calls: its data point is the caller's alone, and a later
	 * registration of the same series, which could only come from another operation whose
	 * name maps to the same family, is refused.
	 */
	@Override
	public Recorder registerOwn(OperationDescriptor descriptor, Tags labels, String result, String error) {
		return family(descriptor).series(labels, result, error, true);
	}

	private Family family(OperationDescriptor descriptor) {
		return this.families.computeIfAbsent(descriptor.familyName(), (name) -> new Family(descriptor));
	}

	@Override
	public boolean exposesMax(OperationDescriptor descriptor) {
		return descriptor.stability() == StabilityLevel.BETA || descriptor.stability() == StabilityLevel.STABLE;
	}

	/**
	 * The histogram of one operation, and its {@code _max} gauge if it has one.
	 */
	private final class Family {

		private final List<String> labelKeys;

		private final NativeHistogram histogram;

		private final Map<List<String>, WindowMax> maxima;

		/**
		 * Whether each data point handed out is one caller's own: such a point is handed
		 * out once.
		 */
		private final Map<NativeHistogram.DataPoint, Boolean> owned = new ConcurrentHashMap<>();

		/** Why the family could not be registered: its name is taken. */
		private final @Nullable String taken;

		Family(OperationDescriptor descriptor) {
			this.labelKeys = descriptor.labelKeys().stream().sorted().toList();
			String[] labelNames = new String[this.labelKeys.size() + 2];
			this.labelKeys.toArray(labelNames);
			labelNames[labelNames.length - 2] = MetricConventions.RESULT_LABEL;
			labelNames[labelNames.length - 1] = MetricConventions.ERROR_LABEL;
			Labels constLabels = constLabels(labelNames);
			List<Double> buckets = descriptor.bucketSeconds(PrometheusDurations.this.naming.durationBuckets());
			this.histogram = NativeHistogram.builder(descriptor.familyName(), descriptor.durationDescription(), buckets)
				.labelNames(labelNames)
				.constLabels(constLabels)
				.build();
			boolean visible = !PrometheusDurations.this.naming.isDisabled(descriptor.familyName());
			boolean keepsMax = exposesMax(descriptor);
			List<String> names = keepsMax ? List.of(descriptor.familyName(), descriptor.familyName() + "_max")
					: List.of(descriptor.familyName());
			this.taken = visible ? claim(descriptor, names) : null;
			if (this.taken != null) {
				this.maxima = null;
				return;
			}
			if (visible) {
				register(this.histogram, names);
			}
			if (!keepsMax) {
				this.maxima = null;
				return;
			}
			this.maxima = new ConcurrentHashMap<>();
			GaugeWithCallback max = GaugeWithCallback.builder()
				.name(descriptor.familyName() + "_max")
				.help(descriptor.durationDescription())
				.labelNames(labelNames)
				.constLabels(constLabels)
				.callback((callback) -> {
					long now = PrometheusDurations.this.clock.monotonicTime();
					this.maxima
						.forEach((values, window) -> callback.call(window.poll(now), values.toArray(String[]::new)));
				})
				.build();
			if (visible) {
				try {
					PrometheusDurations.this.registry.register(max);
				}
				catch (RuntimeException ex) {
					// Both or neither: the next call tries the family again.
					this.histogram.unregister(PrometheusDurations.this.registry);
					PrometheusDurations.this.claimed.release(names);
					throw ex;
				}
			}
		}

		/**
		 * Claims the family's names before registering it, so that the meter filter
		 * denies a Micrometer meter of the same name from then on.
		 * @return why the family cannot be registered (a Micrometer meter holds one of
		 * its names already), or {@code null}
		 */
		private @Nullable String claim(OperationDescriptor descriptor, List<String> names) {
			String owner = "the duration histogram of operation '" + descriptor.operation() + "'";
			if (PrometheusDurations.this.claimed.claim(names, owner)) {
				return null;
			}
			return PrometheusDurations.this.claimed
				.taken("Operation '" + descriptor.operation() + "'", descriptor.familyName())
				.getMessage();
		}

		private void register(NativeHistogram histogram, List<String> names) {
			try {
				histogram.register(PrometheusDurations.this.registry);
			}
			catch (RuntimeException ex) {
				PrometheusDurations.this.claimed.release(names);
				throw ex;
			}
		}

		Recorder series(Tags labels, String result, String error, boolean own) {
			if (this.taken != null) {
				throw new IllegalStateException(this.taken);
			}
			List<String> values = new ArrayList<>(this.labelKeys.size() + 2);
			for (String key : this.labelKeys) {
				Tag tag = find(labels, key);
				values.add((tag != null) ? tag.getValue() : MetricConventions.NONE);
			}
			values.add(result);
			values.add(error);
			NativeHistogram.DataPoint point = this.histogram.labelValues(values.toArray(String[]::new));
			Boolean previous = this.owned.putIfAbsent(point, own);
			if (previous == Boolean.TRUE) {
				throw new IllegalStateException("The series " + values + " of " + this.histogram.getPrometheusName()
						+ " is recorded by another operation of the same metric name already; give the operations "
						+ "names that differ in snake_case, or set a subsystem for one of them");
			}
			WindowMax window = (this.maxima != null) ? this.maxima.computeIfAbsent(List.copyOf(values),
					(key) -> new WindowMax(PrometheusDurations.this.clock.monotonicTime())) : null;
			return new PointRecorder(point, window, own && previous == null);
		}

		/**
		 * Records into one data point, and into its {@code _max} window if it has one.
		 */
		private static final class PointRecorder implements Recorder {

			private final NativeHistogram.DataPoint point;

			private final @Nullable WindowMax window;

			private final boolean own;

			PointRecorder(NativeHistogram.DataPoint point, @Nullable WindowMax window, boolean own) {
				this.point = point;
				this.window = window;
				this.own = own;
			}

			@Override
			public void record(long nanos) {
				double seconds = nanos / 1e9;
				// The maximum first: once the point has counted the call, nothing may
				// fail.
				if (this.window != null) {
					this.window.record(seconds);
				}
				if (!this.point.observe(seconds)) {
					throw new IllegalArgumentException("Duration " + seconds + " s was not counted");
				}
			}

			@Override
			public boolean countsOwnCalls() {
				return this.own;
			}

			@Override
			public long count() {
				return this.point.count();
			}

		}

		private Labels constLabels(String[] labelNames) {
			return NativeHistogram.constantLabels(PrometheusDurations.this.naming.controllerLabels(), labelNames);
		}

		private static Tag find(Tags labels, String key) {
			for (Tag tag : labels) {
				if (tag.getKey().equals(key)) {
					return tag;
				}
			}
			return null;
		}

	}

}
