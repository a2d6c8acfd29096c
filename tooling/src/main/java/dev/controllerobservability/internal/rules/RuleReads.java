package dev.controllerobservability.internal.rules;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.internal.settings.ClosestName;
import dev.controllerobservability.internal.settings.Setting;
import dev.controllerobservability.internal.settings.SettingNames;
import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.RecordingRule;
import dev.controllerobservability.rules.RuleSet;

/**
 * Checks that every metric a rule reads exists (exposed, declared, an operation's, or
 * another recording rule), so that a typo is caught at start-up, not when the alert
 * should have fired. The metrics known before any scrape are counted first, so that a
 * scrape is needed only when a rule reads a metric nothing declares.
 */
public final class RuleReads {

	private static final Set<String> SAMPLE_SUFFIXES = Set.of("bucket", "count", "sum", "max");

	private final RuleSet rules;

	private final List<String> disabledMetrics;

	private final SettingNames names;

	private final Set<String> known = new TreeSet<>();

	/**
	 * Starts with the sample names of the declared families and the recording rules.
	 * @param rules the rules to check
	 * @param declared the families declared before they have series
	 * @param disabledMetrics exposed names of the metrics never registered
	 * @param names how a refusal names the settings
	 */
	public RuleReads(RuleSet rules, Collection<ExposedFamily> declared, List<String> disabledMetrics,
			SettingNames names) {
		this.rules = rules;
		this.disabledMetrics = List.copyOf(disabledMetrics);
		this.names = names;
		add(declared);
		rules.recordingRules().forEach((rule) -> this.known.add(rule.name()));
	}

	/**
	 * Counts exposed families as known.
	 * @param families the families of a scrape
	 */
	public void add(Collection<ExposedFamily> families) {
		for (ExposedFamily family : families) {
			this.known.add(family.name());
			if (family.type().equals("histogram") || family.type().equals("summary")) {
				this.known.add(family.name() + "_count");
				this.known.add(family.name() + "_sum");
				this.known.add(family.name() + "_bucket");
			}
		}
	}

	/**
	 * Whether every metric the rules read is known already.
	 * @return whether no scrape is needed for {@link #check()}
	 */
	public boolean allKnown() {
		return this.rules.recordingRules()
			.stream()
			.allMatch((rule) -> this.known.containsAll(PromQl.metricNames(rule.expr())))
				&& this.rules.alerts()
					.stream()
					.allMatch((alert) -> this.known.containsAll(PromQl.metricNames(alert.expr())));
	}

	/**
	 * Refuses the first rule that reads a metric nobody knows.
	 * @throws InvalidSettingException naming the rule's {@code expr}
	 */
	public void check() {
		for (RecordingRule rule : this.rules.recordingRules()) {
			check("recording-rules[" + rule.name() + "].expr", "recordingRule(" + rule.name() + ")", rule.expr());
		}
		for (AlertRule alert : this.rules.alerts()) {
			check("alerts." + alert.name() + ".expr", "alert(" + alert.name() + ")", alert.expr());
		}
	}

	private void check(String property, String builderCall, String expr) {
		for (String metric : PromQl.metricNames(expr)) {
			if (this.known.contains(metric)) {
				continue;
			}
			String call = "RuleSet.Builder." + builderCall + " expr";
			int disabled = disabledIndex(metric);
			if (disabled >= 0) {
				String family = this.disabledMetrics.get(disabled);
				String setting = this.names.of(Setting.DISABLED_METRICS);
				throw new InvalidSettingException(property, call, expr,
						"the expression reads " + metric + ", which " + setting + "[" + disabled + "] (" + family
								+ ") turns off, so the rule could never see it",
						"Remove " + family + " from " + setting + ", or stop the rule reading it", null);
			}
			String closest = ClosestName.of(metric, this.known);
			throw new InvalidSettingException(property, call, expr,
					"the expression reads " + metric + ", which the application neither exposes nor declares",
					((closest != null) ? "Did you mean " + closest + "? " : "")
							+ "Fix the metric name; to name an operation's metrics before its first call, list the "
							+ "operation under " + this.names.of(Setting.OPERATION_DEFINITIONS),
					null);
		}
	}

	/**
	 * The index in {@code disabled-metrics} of the family a sample name belongs to, or
	 * -1: {@code x_bucket}, {@code x_count}, {@code x_sum} and the {@code x_max} of an
	 * operation belong to {@code x}.
	 */
	private int disabledIndex(String metric) {
		for (int i = 0; i < this.disabledMetrics.size(); i++) {
			String family = this.disabledMetrics.get(i);
			if (metric.equals(family) || (metric.startsWith(family + "_")
					&& SAMPLE_SUFFIXES.contains(metric.substring(family.length() + 1)))) {
				return i;
			}
		}
		return -1;
	}

}
