package dev.controllerobservability.lint;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.internal.metrics.MetricConventions;

/**
 * Lints what an application exposes: every rule of {@code promtool check metrics} with
 * promtool's own texts, and the controller's rules:
 * <ul>
 * <li>metric names start with the controller's namespace (framework metrics
 * excepted);</li>
 * <li>every series of a family has the same label names;</li>
 * <li>no controller metric has a label whose name suggests an unbounded value
 * ({@code uid}, {@code pod_name}, {@code *_id}, ...) unless allowed;</li>
 * <li>no family is exposed twice.</li>
 * </ul>
 * Example:
 * {@code new MetricsLinter("karpenter", Set.of(), List.of()).lint(Exposition.parse(scrape))}.
 */
public final class MetricsLinter {

	/** Label names that usually carry one value per object, and so grow without bound. */
	static final Set<String> UNBOUNDED_LABELS = Set.of("id", "uid", "name", "pod", "pod_name", "pod_uid", "node_name",
			"node_uid", "ip", "url", "path", "email", "user", "request_id", "trace_id", "span_id", "resource_version");

	private final String namespacePrefix;

	private final Set<String> allowedLabels;

	private final List<String> frameworkPrefixes;

	private final String allowedLabelsSetting;

	/**
	 * Creates a linter.
	 * @param namespace the controller's namespace
	 * @param allowedLabels label names the user declared bounded despite their name
	 * @param frameworkPrefixes name prefixes of framework metrics besides the usual ones
	 * ({@code jvm}, {@code process}, {@code http}, ...)
	 */
	public MetricsLinter(String namespace, Set<String> allowedLabels, List<String> frameworkPrefixes) {
		this(namespace, allowedLabels, frameworkPrefixes, "the allowedLabels of new MetricsLinter(…)");
	}

	/**
	 * Creates a linter whose findings name the allowed labels as the path that made it
	 * sets them.
	 * @param namespace the controller's namespace
	 * @param allowedLabels label names the user declared bounded despite their name
	 * @param frameworkPrefixes name prefixes of framework metrics besides the usual ones
	 * @param allowedLabelsSetting how findings name where the allowed labels are set,
	 * such as {@code controller.observability.lint.allowed-labels}
	 */
	public MetricsLinter(String namespace, Set<String> allowedLabels, List<String> frameworkPrefixes,
			String allowedLabelsSetting) {
		this.allowedLabelsSetting = allowedLabelsSetting;
		this.namespacePrefix = namespace + "_";
		this.allowedLabels = Set.copyOf(allowedLabels);
		List<String> prefixes = new ArrayList<>(MetricConventions.FRAMEWORK_PREFIXES);
		prefixes.addAll(frameworkPrefixes);
		this.frameworkPrefixes = List.copyOf(prefixes);
	}

	/**
	 * Lints a scrape.
	 * @param exposition the parsed scrape
	 * @return the findings
	 */
	public LintReport lint(Exposition exposition) {
		return lint(exposition, List.of());
	}

	/**
	 * Lints a scrape and the declared families it does not expose yet, such as a catalog
	 * gauge never set or an operation never called, so that a bad name is found before
	 * its first series.
	 * @param exposition the parsed scrape
	 * @param declared declared families, exposed or not yet; one the scrape exposes is
	 * linted as exposed
	 * @return the findings
	 */
	public LintReport lint(Exposition exposition, Collection<ExposedFamily> declared) {
		return lint(exposition, declared, Map.of());
	}

	/**
	 * Lints a scrape and the declared families, knowing which labels of per-object
	 * metrics name their objects: those are bounded by the objects' lifecycle and the
	 * series cap, so they are not taken for unbounded labels.
	 * @param exposition the parsed scrape
	 * @param declared declared families, exposed or not yet
	 * @param objectLabels the labels that name the object, by family name
	 * ({@code ControllerMetrics.objectLabels()})
	 * @return the findings
	 */
	public LintReport lint(Exposition exposition, Collection<ExposedFamily> declared,
			Map<String, Set<String>> objectLabels) {
		Map<String, ExposedFamily> families = new LinkedHashMap<>();
		exposition.families().forEach((family) -> families.put(family.name(), family));
		declared.forEach((family) -> families.putIfAbsent(family.name(), family));
		List<LintFinding> findings = new ArrayList<>();
		for (ExposedFamily family : families.values()) {
			boolean controller = !isFramework(family.name());
			PromtoolRules.check(family,
					(checked, text) -> findings.add(new LintFinding(checked.name(), text, controller)));
			controllerRules(family, controller, objectLabels.getOrDefault(family.name(), Set.of()), findings);
		}
		for (String duplicate : exposition.duplicateNames()) {
			findings.add(new LintFinding(duplicate, "metric name is exposed more than once", !isFramework(duplicate)));
		}
		return new LintReport(findings);
	}

	/**
	 * Only promtool's rules, in promtool's order, for comparing with
	 * {@code promtool check metrics}.
	 * @param exposition the parsed scrape
	 * @return the findings of promtool's rules
	 */
	public List<LintFinding> promtoolFindings(Exposition exposition) {
		List<LintFinding> findings = new ArrayList<>();
		for (ExposedFamily family : exposition.families()) {
			boolean controller = !isFramework(family.name());
			PromtoolRules.check(family,
					(checked, text) -> findings.add(new LintFinding(checked.name(), text, controller)));
		}
		return findings.stream().sorted().toList();
	}

	/**
	 * Whether a family is a framework metric rather than the controller's.
	 * @param name the family name
	 * @return whether its name starts with a framework prefix
	 */
	public boolean isFramework(String name) {
		// Kubernetes standard names are emitted by this starter for the controller:
		// linted as its own.
		if (name.startsWith(this.namespacePrefix) || MetricConventions.isKubernetesStandardName(name)) {
			return false;
		}
		for (String prefix : this.frameworkPrefixes) {
			if (name.equals(prefix) || name.startsWith(prefix + "_")) {
				return true;
			}
		}
		return false;
	}

	private void controllerRules(ExposedFamily family, boolean controller, Set<String> objectLabels,
			List<LintFinding> findings) {
		String name = family.name();
		// client-go's and controller-runtime's names and labels are a shared standard
		// that
		// dashboards query as they are: no namespace, and labels such as "name" are
		// theirs.
		boolean standard = MetricConventions.isKubernetesStandardName(name);
		if (controller && !standard && !name.startsWith(this.namespacePrefix)) {
			findings.add(new LintFinding(name,
					"metric names should start with the controller's namespace \"" + this.namespacePrefix + "\"",
					true));
		}
		Set<Set<String>> labelSets = new LinkedHashSet<>();
		family.series().forEach((labels) -> labelSets.add(labels.keySet()));
		if (labelSets.size() > 1) {
			List<Set<String>> sets = labelSets.stream()
				.limit(2)
				.map((set) -> (Set<String>) new TreeSet<>(set))
				.toList();
			findings.add(new LintFinding(name,
					"series should all have the same label names, but have " + sets.get(0) + " and " + sets.get(1),
					controller));
		}
		if (controller && !standard) {
			for (String label : family.labelKeys()) {
				if (!this.allowedLabels.contains(label) && !objectLabels.contains(label)
						&& (UNBOUNDED_LABELS.contains(label) || label.endsWith("_id") || label.endsWith("_uid"))) {
					findings.add(new LintFinding(name, "label \"" + label + "\" suggests an unbounded value; "
							+ "allow it with " + this.allowedLabelsSetting + " if it is bounded", true));
				}
			}
		}
	}

}
