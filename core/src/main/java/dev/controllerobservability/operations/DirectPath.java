package dev.controllerobservability.operations;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationPredicate;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.operations.OperationContext;
import dev.controllerobservability.internal.operations.OperationSeries;
import dev.controllerobservability.internal.operations.OperationSeriesCache;

/**
 * The direct path: operations recorded straight into the meter handler's series, and the
 * handles of calls remembered by their {@link Tags} instance, so that a call with tags
 * seen before allocates nothing. Not API: {@link ControllerOperations} is.
 */
final class DirectPath {

	/** Most label sets per operation whose resolution is remembered. */
	static final int MAX_CACHED_LABEL_SETS = 1024;

	private final OperationSeriesCache series;

	private final List<ObservationPredicate> predicates;

	private final int maxCachedNames;

	private final int maxLabelValueLength;

	private final ConcurrentMap<String, ConcurrentMap<Tags, OperationHandle>> handles = new ConcurrentHashMap<>();

	DirectPath(OperationSeriesCache series, List<ObservationPredicate> predicates, int maxCachedNames,
			int maxLabelValueLength) {
		this.series = series;
		this.predicates = List.copyOf(predicates);
		this.maxCachedNames = maxCachedNames;
		this.maxLabelValueLength = maxLabelValueLength;
	}

	Clock clock() {
		return this.series.clock();
	}

	/**
	 * The series an operation records into, or {@code null} when the registry's
	 * predicates switch it off by name (the observation path then skips it as the
	 * registry says).
	 */
	@Nullable OperationSeries series(OperationDescriptor descriptor, Tags labels) {
		return recordsDirectly(descriptor) ? this.series.series(descriptor, labels) : null;
	}

	boolean recordsDirectly(OperationDescriptor descriptor) {
		if (this.predicates.isEmpty()) {
			return true;
		}
		Observation.Context context = new OperationContext(descriptor, Tags.empty());
		for (ObservationPredicate predicate : this.predicates) {
			if (!predicate.test(descriptor.baseName(), context)) {
				return false;
			}
		}
		return true;
	}

	/** The handle remembered for a call's tags, or {@code null}. */
	@Nullable OperationHandle remembered(@Nullable String operation, Tags tags) {
		// No name is remembered: resolving it tells the caller what is wrong.
		ConcurrentMap<Tags, OperationHandle> known = (operation != null) ? this.handles.get(operation) : null;
		return (known != null) ? known.get(tags) : null;
	}

	/** Remembers a handle for a call's tags, within the bounds. */
	void remember(@Nullable String operation, Tags tags, OperationHandle handle) {
		if (operation == null || !isCacheable(tags, handle)) {
			return;
		}
		ConcurrentMap<Tags, OperationHandle> known = this.handles.get(operation);
		if (known == null && this.handles.size() < this.maxCachedNames) {
			known = this.handles.computeIfAbsent(operation, (name) -> new ConcurrentHashMap<>());
		}
		if (known != null && known.size() < MAX_CACHED_LABEL_SETS) {
			known.putIfAbsent(tags, handle);
		}
	}

	/** The caller's tags whose handles are remembered for an operation. */
	Set<Tags> cachedTags(String operation) {
		Map<Tags, OperationHandle> known = this.handles.get(operation);
		return (known != null) ? Set.copyOf(known.keySet()) : Set.of();
	}

	/**
	 * Whether a handle may be remembered for a caller's tags: values longer than the
	 * limiter keeps would make the cache hold more than the series it stands for.
	 */
	private boolean isCacheable(Tags tags, OperationHandle handle) {
		if (!handle.isRecorded()) {
			return false;
		}
		if (!handle.isDirect() && recordsDirectly(handle.descriptor())) {
			// Its meters could not be registered: try again on the next call.
			return false;
		}
		for (Tag tag : tags) {
			if (tag.getValue().length() > this.maxLabelValueLength
					|| tag.getKey().length() > this.maxLabelValueLength) {
				return false;
			}
		}
		return true;
	}

}
