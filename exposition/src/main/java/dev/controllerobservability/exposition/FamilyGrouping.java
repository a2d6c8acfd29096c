package dev.controllerobservability.exposition;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Groups the entries of a scrape into families the way Prometheus and promtool count
 * them: a {@code # TYPE} or {@code # HELP} line starts a family, histogram and summary
 * samples ({@code _bucket}, {@code _count}, {@code _sum}) belong to their base family,
 * and samples of one label set form one series.
 */
final class FamilyGrouping {

	private final Map<String, Builder> families = new LinkedHashMap<>();

	private final List<String> duplicates = new ArrayList<>();

	private final List<ExposedSample> samples = new ArrayList<>();

	void help(String name, String help) {
		family(name).help = help;
	}

	void type(String name, String type) {
		Builder family = family(name);
		if (family.type != null) {
			this.duplicates.add(name);
		}
		family.type = type;
	}

	void sample(ExposedSample sample) {
		this.samples.add(sample);
		String name = sample.name();
		Map<String, String> labels = new LinkedHashMap<>(sample.labels());
		Builder family = owner(name);
		String bucket = null;
		if ("histogram".equals(family.type)) {
			bucket = labels.remove("le");
		}
		else if ("summary".equals(family.type)) {
			labels.remove("quantile");
		}
		family.addSeries(labels, name.endsWith("_bucket") ? bucket : null);
	}

	Exposition exposition() {
		return new Exposition(this.families.values().stream().map(Builder::build).toList(), this.duplicates,
				this.samples);
	}

	private Builder family(String name) {
		return this.families.computeIfAbsent(name, Builder::new);
	}

	private Builder owner(String sampleName) {
		for (String suffix : new String[] { "_bucket", "_count", "_sum" }) {
			if (sampleName.endsWith(suffix)) {
				Builder base = this.families.get(sampleName.substring(0, sampleName.length() - suffix.length()));
				if (base != null && ("histogram".equals(base.type) || "summary".equals(base.type))
						&& !(suffix.equals("_bucket") && "summary".equals(base.type))) {
					return base;
				}
			}
		}
		return family(sampleName);
	}

	private static final class Builder {

		private final String name;

		private String type;

		private String help;

		private final Set<Map<String, String>> series = new LinkedHashSet<>();

		private Map<String, String> firstSeries;

		private final List<Double> buckets = new ArrayList<>();

		Builder(String name) {
			this.name = name;
		}

		void addSeries(Map<String, String> labels, String bucket) {
			if (this.series.add(labels) && this.firstSeries == null) {
				this.firstSeries = labels;
			}
			if (bucket != null && labels.equals(this.firstSeries)) {
				Double bound = bound(bucket);
				if (bound != null && bound != Double.POSITIVE_INFINITY) {
					this.buckets.add(bound);
				}
			}
		}

		// Prometheus reads any le text; a bound that is not a number is no bucket
		// boundary, as histogram_quantile skips it.
		private static Double bound(String le) {
			try {
				return TextFormatFloat.parse(le);
			}
			catch (IllegalArgumentException ex) {
				return null;
			}
		}

		ExposedFamily build() {
			return new ExposedFamily(this.name, (this.type != null) ? this.type : "untyped", this.help,
					new ArrayList<>(this.series), this.buckets);
		}

	}

}
