package dev.controllerobservability.docs;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.internal.json.IndentedJson;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.stability.StabilityLevel;

/**
 * The reference of every metric family an application exposes, plus declared metrics that
 * have no series yet: built from a live scrape and the catalog, so no exposed metric is
 * ever missing from it. Example:
 *
 * <pre>{@code
 * MetricsReference reference = MetricsReference.of(Exposition.parse(scrape), declared, linter::isFramework);
 * Files.writeString(Path.of("docs/reference/metrics.md"), reference.toMarkdown("Demo controller metrics"));
 * }</pre>
 */
public final class MetricsReference {

	private static final Pattern ANNOTATED = Pattern
		.compile("^\\[(INTERNAL|ALPHA|BETA|STABLE)] (?:\\(Deprecated since ([^)]+)\\) )?(.*)$", Pattern.DOTALL);

	private static final Pattern REPLACED = Pattern.compile("^(.*) Replaced by ([a-zA-Z_:][a-zA-Z0-9_:]*)\\.$",
			Pattern.DOTALL);

	/**
	 * Heading of the table of Kubernetes-compatible metrics
	 * ({@code controller_runtime_*}, {@code workqueue_*}, {@code rest_client_*},
	 * {@code leader_election_*}).
	 */
	public static final String KUBERNETES_HEADING = "Kubernetes-compatible metrics";

	/**
	 * Heading of the framework table, whose rows depend on the JVM and libraries in use.
	 */
	public static final String FRAMEWORK_HEADING = "Framework metrics";

	private final List<ReferenceEntry> entries;

	private MetricsReference(List<ReferenceEntry> entries) {
		this.entries = entries;
	}

	/**
	 * Builds the reference.
	 * @param live the application's scrape
	 * @param declared declared families, exposed or not yet
	 * @param isFramework which names belong to the JVM, Spring Boot or libraries
	 * @return the reference, sorted by name
	 */
	public static MetricsReference of(Exposition live, Collection<ExposedFamily> declared,
			Predicate<String> isFramework) {
		Map<String, ExposedFamily> families = new LinkedHashMap<>();
		declared.forEach((family) -> families.put(family.name(), family));
		live.families().forEach((family) -> families.merge(family.name(), family, MetricsReference::merge));
		List<ReferenceEntry> entries = new ArrayList<>();
		families.values().forEach((family) -> entries.add(entry(family, isFramework)));
		entries.sort((a, b) -> a.name().compareTo(b.name()));
		return new MetricsReference(List.copyOf(entries));
	}

	private static ExposedFamily merge(ExposedFamily declared, ExposedFamily live) {
		List<Map<String, String>> series = new ArrayList<>(live.series());
		series.addAll(declared.series());
		return new ExposedFamily(live.name(), live.type(), (live.help() != null) ? live.help() : declared.help(),
				series, live.buckets().isEmpty() ? declared.buckets() : live.buckets());
	}

	private static ReferenceEntry entry(ExposedFamily family, Predicate<String> isFramework) {
		String name = family.name();
		ReferenceEntry.Group group = MetricConventions.isKubernetesStandardName(name) ? ReferenceEntry.Group.KUBERNETES
				: isFramework.test(name) ? ReferenceEntry.Group.FRAMEWORK : ReferenceEntry.Group.CONTROLLER;
		String help = (family.help() != null) ? family.help() : "";
		StabilityLevel stability = (group == ReferenceEntry.Group.FRAMEWORK) ? null : StabilityLevel.ALPHA;
		String deprecated = null;
		String replacedBy = null;
		Matcher annotated = ANNOTATED.matcher(help);
		if (annotated.matches()) {
			stability = StabilityLevel.valueOf(annotated.group(1));
			deprecated = annotated.group(2);
			help = annotated.group(3);
		}
		Matcher replaced = REPLACED.matcher(help);
		if (replaced.matches()) {
			help = replaced.group(1);
			replacedBy = replaced.group(2);
		}
		return new ReferenceEntry(name, family.type(), help.trim(), new ArrayList<>(new TreeSet<>(family.labelKeys())),
				stability, deprecated, replacedBy, family.buckets(), group);
	}

	/**
	 * Every entry, sorted by name.
	 * @return the entries
	 */
	public List<ReferenceEntry> entries() {
		return this.entries;
	}

	/**
	 * Entries of one stability level (controller and Kubernetes metrics).
	 * @param level the level
	 * @return the entries, sorted by name
	 */
	public List<ReferenceEntry> entries(StabilityLevel level) {
		return ofLevel(this.entries, level);
	}

	/**
	 * Entries of one group.
	 * @param group the group
	 * @return the entries, sorted by name
	 */
	public List<ReferenceEntry> entries(ReferenceEntry.Group group) {
		return this.entries.stream().filter((entry) -> entry.group() == group).toList();
	}

	/**
	 * Renders Markdown: a table of the controller's own metrics per stability level
	 * (Stable, Beta, Alpha, Internal), then one of the Kubernetes-compatible metrics,
	 * then one of the framework metrics.
	 * @param title the document's heading
	 * @return the Markdown
	 */
	public String toMarkdown(String title) {
		StringBuilder markdown = new StringBuilder();
		markdown.append("# ").append(title).append("\n\n");
		markdown.append("Generated by Controller Observability from the metrics the application exposes and the ")
			.append("metrics it declares. Do not edit by hand.\n");
		List<ReferenceEntry> controller = entries(ReferenceEntry.Group.CONTROLLER);
		table(markdown, "Stable metrics", ofLevel(controller, StabilityLevel.STABLE));
		table(markdown, "Beta metrics", ofLevel(controller, StabilityLevel.BETA));
		table(markdown, "Alpha metrics", ofLevel(controller, StabilityLevel.ALPHA));
		table(markdown, "Internal metrics", ofLevel(controller, StabilityLevel.INTERNAL));
		table(markdown, KUBERNETES_HEADING, entries(ReferenceEntry.Group.KUBERNETES));
		table(markdown, FRAMEWORK_HEADING, entries(ReferenceEntry.Group.FRAMEWORK));
		return markdown.toString();
	}

	private static List<ReferenceEntry> ofLevel(List<ReferenceEntry> entries, StabilityLevel level) {
		return entries.stream().filter((entry) -> entry.stability() == level).toList();
	}

	private static void table(StringBuilder markdown, String heading, List<ReferenceEntry> entries) {
		markdown.append("\n## ").append(heading).append("\n\n");
		if (entries.isEmpty()) {
			markdown.append("None.\n");
			return;
		}
		markdown.append("| Name | Type | Help | Labels | Stability | Deprecated version | Replaced by |\n");
		markdown.append("|---|---|---|---|---|---|---|\n");
		for (ReferenceEntry entry : entries) {
			markdown.append("| `")
				.append(entry.name())
				.append("` | ")
				.append(entry.type())
				.append(" | ")
				.append(cell(entry.help()))
				.append(" | ")
				.append(String.join(", ", entry.labels().stream().map((label) -> "`" + label + "`").toList()))
				.append(" | ")
				.append((entry.stability() != null) ? entry.stability() : "")
				.append(" | ")
				.append((entry.deprecatedVersion() != null) ? entry.deprecatedVersion() : "")
				.append(" | ")
				.append((entry.replacedBy() != null) ? "`" + entry.replacedBy() + "`" : "")
				.append(" |\n");
		}
	}

	private static String cell(String text) {
		return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ");
	}

	/**
	 * Renders JSON: an array of entries with the Markdown's columns plus buckets and
	 * group, each entry an object of the {@link ReferenceEntry} components in their
	 * order.
	 * @return the JSON
	 */
	public String toJson() {
		return IndentedJson.write(this.entries);
	}

}
