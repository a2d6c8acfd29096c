package dev.controllerobservability.exposition;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the Prometheus text format (version 0.0.4) the way Prometheus's own parser groups
 * it: a {@code # TYPE} or {@code # HELP} line starts a family, histogram and summary
 * samples ({@code _bucket}, {@code _count}, {@code _sum}) belong to their base family,
 * and samples of one label set form one series.
 */
final class ExpositionParser {

	private final String text;

	private final Map<String, Builder> families = new LinkedHashMap<>();

	private final List<String> duplicates = new ArrayList<>();

	private final List<ExposedSample> samples = new ArrayList<>();

	ExpositionParser(String text) {
		this.text = text;
	}

	Exposition parse() {
		int lineNumber = 0;
		for (String line : this.text.split("\n", -1)) {
			lineNumber++;
			if (line.isBlank()) {
				continue;
			}
			try {
				if (line.startsWith("# HELP ")) {
					String[] parts = split(line.substring(7));
					family(parts[0]).help = unescapeHelp(parts[1]);
				}
				else if (line.startsWith("# TYPE ")) {
					String[] parts = split(line.substring(7));
					Builder family = family(parts[0]);
					if (family.type != null) {
						this.duplicates.add(parts[0]);
					}
					family.type = parts[1].trim();
				}
				else if (!line.startsWith("#")) {
					sample(line);
				}
			}
			catch (RuntimeException ex) {
				throw new IllegalArgumentException(
						"Line " + lineNumber + " is not of the Prometheus text format: " + line, ex);
			}
		}
		return new Exposition(this.families.values().stream().map(Builder::build).toList(), this.duplicates,
				this.samples);
	}

	private Builder family(String name) {
		return this.families.computeIfAbsent(name, Builder::new);
	}

	private void sample(String line) {
		int nameEnd = 0;
		while (nameEnd < line.length() && line.charAt(nameEnd) != '{' && line.charAt(nameEnd) != ' ') {
			nameEnd++;
		}
		String name = line.substring(0, nameEnd);
		Map<String, String> labels = new LinkedHashMap<>();
		int valueStart = nameEnd;
		if (nameEnd < line.length() && line.charAt(nameEnd) == '{') {
			valueStart = parseLabels(line, nameEnd + 1, labels) + 1;
		}
		this.samples.add(new ExposedSample(name, labels, value(line.substring(valueStart))));
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

	private static int parseLabels(String line, int start, Map<String, String> labels) {
		int i = start;
		while (i < line.length() && line.charAt(i) != '}') {
			int equals = line.indexOf('=', i);
			String key = line.substring(i, equals).trim();
			int quote = line.indexOf('"', equals);
			StringBuilder value = new StringBuilder();
			int j = quote + 1;
			while (line.charAt(j) != '"') {
				char c = line.charAt(j);
				if (c == '\\') {
					char next = line.charAt(++j);
					value.append((next == 'n') ? '\n' : next);
				}
				else {
					value.append(c);
				}
				j++;
			}
			labels.put(key, value.toString());
			i = j + 1;
			if (i < line.length() && line.charAt(i) == ',') {
				i++;
			}
		}
		if (i >= line.length()) {
			throw new IllegalArgumentException("unterminated label set");
		}
		return i;
	}

	private static double value(String valueAndTimestamp) {
		String value = valueAndTimestamp.trim().split("\\s+", 2)[0];
		return switch (value) {
			case "+Inf" -> Double.POSITIVE_INFINITY;
			case "-Inf" -> Double.NEGATIVE_INFINITY;
			case "NaN" -> Double.NaN;
			default -> Double.parseDouble(value);
		};
	}

	private static String[] split(String nameAndRest) {
		int space = nameAndRest.indexOf(' ');
		return (space < 0) ? new String[] { nameAndRest, "" }
				: new String[] { nameAndRest.substring(0, space), nameAndRest.substring(space + 1) };
	}

	private static String unescapeHelp(String help) {
		StringBuilder result = new StringBuilder();
		for (int i = 0; i < help.length(); i++) {
			char c = help.charAt(i);
			if (c == '\\' && i + 1 < help.length()) {
				char next = help.charAt(++i);
				result.append((next == 'n') ? '\n' : next);
			}
			else {
				result.append(c);
			}
		}
		return result.toString();
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
			if (bucket != null && labels.equals(this.firstSeries) && !bucket.equals("+Inf")) {
				this.buckets.add(Double.parseDouble(bucket));
			}
		}

		ExposedFamily build() {
			return new ExposedFamily(this.name, (this.type != null) ? this.type : "untyped", this.help,
					new ArrayList<>(this.series), this.buckets);
		}

	}

}
