package dev.controllerobservability.internal.settings;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.catalog.PerObject;
import dev.controllerobservability.catalog.MetricType;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.MetricNames;
import dev.controllerobservability.internal.metrics.NamingPolicy;
import dev.controllerobservability.internal.operations.OperationResolver;
import dev.controllerobservability.operations.OperationDefinition;
import dev.controllerobservability.operations.OperationDescriptor;

/**
 * The cross-checks between settings, each checked on its own by {@link SettingRules}: the
 * settings that refer to metrics and operations by name (disabled metrics, label
 * allow-lists) and the catalog against the operations known before their first call. The
 * core builder and the Spring Boot auto-configuration make the same checks, before
 * anything is registered, and refuse what is known to be wrong with an
 * {@link InvalidSettingException}:
 * <ul>
 * <li>two operations recorded under one name;</li>
 * <li>a catalog metric exposed under an operation's name, such as
 * {@code bind_duration_seconds} next to the operation {@code bind};</li>
 * <li>a disabled name that is a histogram's series ({@code _bucket}, {@code _count},
 * {@code _sum}) rather than the histogram;</li>
 * <li>an allow-list for a metric the limits never see, or for a label the metric does not
 * have.</li>
 * </ul>
 */
public final class SettingReferences {

	private static final String DURATION_FAMILY_SUFFIX = "_" + MetricConventions.DURATION_SUFFIX + "_seconds";

	/**
	 * The series of a histogram's family, and its {@code _max} gauge, which comes and
	 * goes with the histogram.
	 */
	private static final List<String> HISTOGRAM_SERIES_SUFFIXES = List.of("_bucket", "_count", "_sum", "_max");

	private final String namespace;

	private final List<String> operationTags;

	private final Map<String, OperationDefinition> definitions;

	private final MetricCatalog catalog;

	private final SettingNames names;

	/** Operations known before their first call, by snake_case name. */
	private final Map<String, OperationDescriptor> operations = new LinkedHashMap<>();

	/**
	 * Gathers what the settings refer to.
	 * @param namespace the checked namespace
	 * @param operationTags the checked label keys of every operation metric
	 * @param definitions the checked per-operation settings by snake_case name
	 * @param otherOperations names of operations known before their first call besides
	 * the defined ones, such as those given rules; a name with no snake_case form is left
	 * out (its own setting refuses it)
	 * @param catalog the checked catalog
	 * @param names how messages name the other settings they mention
	 */
	public SettingReferences(String namespace, List<String> operationTags, Map<String, OperationDefinition> definitions,
			Collection<String> otherOperations, MetricCatalog catalog, SettingNames names) {
		this.namespace = namespace;
		this.operationTags = List.copyOf(operationTags);
		this.definitions = Map.copyOf(definitions);
		this.catalog = catalog;
		this.names = names;
		NamingPolicy naming = NamingPolicy.builder(namespace).build();
		Set<String> known = new LinkedHashSet<>(definitions.keySet());
		otherOperations.forEach((name) -> known.add(MetricNames.toSnakeCase(name)));
		for (String name : known) {
			if (MetricNames.isSnakeCase(name)) {
				this.operations.put(name,
						OperationResolver.describe(naming, this.operationTags, this.definitions, name));
			}
		}
	}

	/**
	 * Refuses what is known to be wrong.
	 * @param disabledMetrics the checked exposed names of metrics never registered
	 * @param allowList the checked allowed label values by exposed metric name and label
	 * @throws InvalidSettingException for the first mistake
	 */
	public void check(Tags commonTags, List<String> disabledMetrics, Map<String, Map<String, Set<String>>> allowList) {
		checkOperationsDistinct();
		commonTags.forEach(this::checkCommonTag);
		this.catalog.definitions().forEach(this::checkNotAnOperation);
		for (int i = 0; i < disabledMetrics.size(); i++) {
			checkDisabledIsAFamily(i, disabledMetrics.get(i));
		}
		allowList.forEach(this::checkAllowList);
	}

	/**
	 * Refuses a common tag whose key a controller metric has as a label of its own: the
	 * metric's value would win, and the common tag be dropped from it without a word.
	 */
	private void checkCommonTag(Tag tag) {
		String key = tag.getKey();
		String owner = null;
		if (this.operationTags.contains(key)) {
			owner = "an operation tag (" + this.names.of(Setting.OPERATION_TAGS) + ")";
		}
		for (MetricDefinition definition : this.catalog.definitions()) {
			if (owner == null && definition.labels().contains(key)) {
				owner = "a label of " + this.catalog.exposedName(definition.name());
			}
		}
		if (owner != null) {
			throw Setting.COMMON_TAGS.key(key)
				.refuse(tag.getValue(),
						"'" + key + "' is also " + owner
								+ ": the metric's own value would win there, and the common tag be dropped from it",
						"Give the common tag or the label another key");
		}
	}

	/**
	 * Operations known before their first call.
	 * @return their descriptors by snake_case name, in the order given
	 */
	public Map<String, OperationDescriptor> operations() {
		return Collections.unmodifiableMap(this.operations);
	}

	/**
	 * The metrics allow-lists apply to, as far as known before any call.
	 * @return the exposed names of declared metrics and of known operations' duration
	 * histograms
	 */
	public Set<String> allowListKeys() {
		Set<String> known = new TreeSet<>();
		this.catalog.definitions().forEach((definition) -> known.add(this.catalog.exposedName(definition.name())));
		this.operations.values().forEach((operation) -> known.add(operation.familyName()));
		return known;
	}

	/**
	 * Whether a name has the form of an operation's duration histogram, whether or not
	 * the operation is known.
	 * @param name an exposed metric name
	 * @return whether it is {@code <namespace>_..._duration_seconds}
	 */
	public boolean isOperationFamily(String name) {
		return name.startsWith(this.namespace + "_") && name.endsWith(DURATION_FAMILY_SUFFIX);
	}

	private void checkOperationsDistinct() {
		Map<String, OperationDescriptor> byFamily = new LinkedHashMap<>();
		for (OperationDescriptor operation : this.operations.values()) {
			OperationDescriptor other = byFamily.putIfAbsent(operation.familyName(), operation);
			if (other != null) {
				throw Setting.operation(operation.operation())
					.refuse(operation.operation(),
							"operations '" + other.operation() + "' and '" + operation.operation()
									+ "' are both recorded as " + operation.familyName()
									+ ", so their calls would be counted together under one help text",
							"Give one of them another name or a different "
									+ this.names.of(Setting.operation("<operation>").field("subsystem")));
			}
		}
	}

	private void checkNotAnOperation(MetricDefinition definition) {
		List<String> metricNames = new ArrayList<>(List.of(definition.name()));
		if (definition.replaces() != null) {
			metricNames.add(definition.replaces());
		}
		for (String name : metricNames) {
			String exposed = this.catalog.exposedName(name);
			for (OperationDescriptor operation : this.operations.values()) {
				String role = (exposed.equals(operation.familyName())) ? "the duration histogram"
						: exposed.equals(operation.familyName() + "_max") ? "the maximum gauge"
								: exposed.equals(operation.inFlightFamilyName()) ? "the in-flight gauge" : null;
				if (role != null) {
					throw Setting.metric(definition.name())
						.refuse(definition.name(),
								exposed + " is " + role + " of operation '" + operation.operation()
										+ "', and Prometheus keeps only one family of a name, so the operation's "
										+ "metrics would vanish",
								"Rename the metric" + otherSubsystem(operation));
				}
			}
		}
	}

	/**
	 * How the operation's names could move instead, unless a subsystem already moved
	 * them.
	 */
	private String otherSubsystem(OperationDescriptor operation) {
		OperationDefinition definition = this.definitions.get(operation.operation());
		String definitions = this.names.of(Setting.OPERATION_DEFINITIONS);
		if (definition != null && definition.subsystem() != null) {
			return ", or change the subsystem '" + definition.subsystem() + "' of operation '" + operation.operation()
					+ "' under " + definitions;
		}
		return ", or give operation '" + operation.operation() + "' a subsystem under " + definitions;
	}

	private void checkDisabledIsAFamily(int index, String name) {
		for (String suffix : HISTOGRAM_SERIES_SUFFIXES) {
			String family = name.endsWith(suffix) ? name.substring(0, name.length() - suffix.length()) : null;
			if (family != null && histogramFamilies().contains(family)) {
				throw Setting.DISABLED_METRICS.element(index)
					.refuse(name,
							name + " is a series of the histogram " + family + ", and "
									+ this.names.brief(Setting.DISABLED_METRICS)
									+ " takes whole metrics (families), so it matches nothing",
							"Did you mean " + family + "?");
			}
		}
	}

	private Set<String> histogramFamilies() {
		Set<String> families = new TreeSet<>();
		this.operations.values().forEach((operation) -> families.add(operation.familyName()));
		for (MetricDefinition definition : this.catalog.definitions()) {
			if (definition.type() == MetricType.HISTOGRAM || definition.type() == MetricType.SUMMARY) {
				families.add(this.catalog.exposedName(definition.name()));
			}
		}
		return families;
	}

	private void checkAllowList(String metric, Map<String, Set<String>> labels) {
		Setting setting = Setting.LABEL_ALLOW_LIST.key(metric);
		MetricDefinition definition = findDeclared(metric);
		if (definition != null) {
			for (String label : labels.keySet()) {
				PerObject perObject = definition.perObject();
				if (perObject != null && perObject.labels().contains(label)) {
					throw setting.key(label)
						.refuse(labels.get(label), "'" + label + "' names the object of the per-object metric " + metric
								+ ", whose values come and go with the objects and are bounded by the series cap",
								"Remove the allow-list of '" + label + "'");
				}
				if (!definition.labels().contains(label)) {
					String closest = ClosestName.of(label, definition.labels());
					throw setting.key(label)
						.refuse(label, metric + " has no label '" + label + "'; its labels are " + definition.labels(),
								((closest != null) ? "Did you mean '" + closest + "'? " : "")
										+ "Allow-list values of one of its labels");
				}
			}
			return;
		}
		if (isOperationFamily(metric)) {
			String tags = this.names.of(Setting.OPERATION_TAGS);
			for (String label : labels.keySet()) {
				if (!this.operationTags.contains(label) && !label.equals(MetricConventions.ERROR_LABEL)) {
					throw setting.key(label)
						.refuse(label, "an allow-list of an operation's duration histogram may name its operation tags "
								+ this.operationTags + " (" + tags + ") and error, and '" + label + "' is none of them",
								label.equals(MetricConventions.RESULT_LABEL)
										? "Remove it: result is always success or error"
										: "Add " + label + " to " + tags + ", or allow-list one of those");
				}
			}
			return;
		}
		Set<String> keys = allowListKeys();
		String closest = ClosestName.of(metric, keys);
		String example = keys.isEmpty() ? this.namespace + "_bind" + DURATION_FAMILY_SUFFIX
				: String.join(", ", keys.stream().limit(5).toList());
		throw setting.refuse(metric,
				metric + " is neither a declared metric nor an operation's duration histogram, the only metrics "
						+ "allow-lists apply to, so the allow-list would never be used",
				((closest != null) ? "Did you mean " + closest + "? " : "")
						+ "Key the allow-list by the exposed name of a declared metric or of an operation's duration "
						+ "histogram, such as " + example);
	}

	private @Nullable MetricDefinition findDeclared(String exposedName) {
		for (MetricDefinition definition : this.catalog.definitions()) {
			if (this.catalog.exposedName(definition.name()).equals(exposedName)) {
				return definition;
			}
		}
		return null;
	}

}
