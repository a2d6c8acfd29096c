package dev.controllerobservability.autoconfigure;

import dev.controllerobservability.catalog.MetricType;
import dev.controllerobservability.stability.StabilityLevel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One declared metric.
 */
public class MetricProperties {

	/**
	 * Metric type: counter, gauge, histogram, summary (prefer histogram) or info.
	 */
	private MetricType type;

	/**
	 * Help text; the stability level and deprecation are prepended when exposed.
	 */
	private String help;

	/**
	 * Label keys every series carries.
	 */
	private List<String> labels = new ArrayList<>();

	/**
	 * Bucket boundaries of a histogram, strictly increasing. Defaults to
	 * duration-buckets.
	 */
	private List<Double> buckets = new ArrayList<>();

	/**
	 * Base unit the name ends with, such as seconds or bytes.
	 */
	private String unit;

	/**
	 * Stability level: INTERNAL, ALPHA, BETA or STABLE.
	 */
	private StabilityLevel stability = StabilityLevel.ALPHA;

	/**
	 * Version that deprecated the metric, MAJOR.MINOR.PATCH.
	 */
	private String deprecatedVersion;

	/**
	 * Old name (without namespace) this metric replaces; it stays exposed as a deprecated
	 * alias for the stability level's deprecation window.
	 */
	private String replaces;

	/**
	 * Version that introduced this name in place of the replaced one.
	 */
	private String renamedIn;

	/**
	 * Known values per label; when every label's values are known, counters and
	 * histograms are present at 0 from start-up.
	 */
	private Map<String, List<String>> labelValues = new LinkedHashMap<>();

	public MetricType getType() {
		return this.type;
	}

	public void setType(MetricType type) {
		this.type = type;
	}

	public String getHelp() {
		return this.help;
	}

	public void setHelp(String help) {
		this.help = help;
	}

	public List<String> getLabels() {
		return this.labels;
	}

	public void setLabels(List<String> labels) {
		this.labels = labels;
	}

	public List<Double> getBuckets() {
		return this.buckets;
	}

	public void setBuckets(List<Double> buckets) {
		this.buckets = buckets;
	}

	public String getUnit() {
		return this.unit;
	}

	public void setUnit(String unit) {
		this.unit = unit;
	}

	public StabilityLevel getStability() {
		return this.stability;
	}

	public void setStability(StabilityLevel stability) {
		this.stability = stability;
	}

	public String getDeprecatedVersion() {
		return this.deprecatedVersion;
	}

	public void setDeprecatedVersion(String deprecatedVersion) {
		this.deprecatedVersion = deprecatedVersion;
	}

	public String getReplaces() {
		return this.replaces;
	}

	public void setReplaces(String replaces) {
		this.replaces = replaces;
	}

	public String getRenamedIn() {
		return this.renamedIn;
	}

	public void setRenamedIn(String renamedIn) {
		this.renamedIn = renamedIn;
	}

	public Map<String, List<String>> getLabelValues() {
		return this.labelValues;
	}

	public void setLabelValues(Map<String, List<String>> labelValues) {
		this.labelValues = labelValues;
	}

}
