package dev.controllerobservability.live;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.operations.ControllerOperations;

/**
 * What a controller declares before its metrics have series: the catalog, and the
 * operations known before their first call (declared, or given built-in rules), with the
 * settings that shape their families.
 *
 * @param namespace the controller's namespace
 * @param metrics the catalog
 * @param operations operation timing
 * @param operationNames snake_case names of the operations known before their first call
 * @param commonTagKeys keys of the tags every controller metric carries
 * @param durationBuckets the default duration buckets, in seconds
 * @param disabledMetrics exposed names of metrics never registered
 */
public record DeclaredMetrics(String namespace, ControllerMetrics metrics, ControllerOperations operations,
		List<String> operationNames, List<String> commonTagKeys, List<Double> durationBuckets,
		List<String> disabledMetrics) {

	private static final String MAX_SUFFIX = "_max";

	public DeclaredMetrics {
		operationNames = List.copyOf(operationNames);
		commonTagKeys = List.copyOf(commonTagKeys);
		durationBuckets = List.copyOf(durationBuckets);
		disabledMetrics = List.copyOf(disabledMetrics);
	}

	/**
	 * The declared families: catalog metrics and known operations, with the given labels
	 * besides their own. A family named in {@code disabledMetrics} is left out, with the
	 * {@code _max} of a disabled histogram.
	 * @param extraLabels labels every series carries besides its own
	 * @return the families
	 */
	public List<ExposedFamily> families(Collection<String> extraLabels) {
		List<String> labels = List.copyOf(extraLabels);
		List<ExposedFamily> families = new ArrayList<>(this.metrics.declaredFamilies(labels));
		for (String operation : this.operationNames) {
			for (ExposedFamily family : this.operations.families(operation, labels, this.durationBuckets)) {
				if (!isDisabled(family.name())) {
					families.add(family);
				}
			}
		}
		return families;
	}

	private boolean isDisabled(String family) {
		return this.disabledMetrics.contains(family) || (family.endsWith(MAX_SUFFIX)
				&& this.disabledMetrics.contains(family.substring(0, family.length() - MAX_SUFFIX.length())));
	}

}
