package dev.controllerobservability.exposition;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import io.prometheus.metrics.config.ExporterProperties;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.StateSetSnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.UnknownSnapshot;
import org.jspecify.annotations.Nullable;

/**
 * Reads a registry's snapshots into the entries the Prometheus text format 0.0.4 shows
 * for them, entry by entry as prometheus-metrics' {@code PrometheusTextFormatWriter}
 * writes them with its default underscore escaping (the writer behind
 * {@code PrometheusMeterRegistry.scrape()}), and groups them as {@link ExpositionParser}
 * groups the text: the same families, types, help, samples, names and labels, without
 * writing the text and reading it back. Counters are {@code _total}, info {@code _info},
 * state sets gauges labelled by their own name, gauge histograms add {@code _gcount} and
 * {@code _gsum} gauges, a histogram without classic buckets shows one {@code +Inf}
 * bucket, and {@code _created} gauges follow every family only when the exporter
 * properties include them.
 */
final class SnapshotReader {

	private static final String LE = "le";

	private static final String QUANTILE = "quantile";

	private final FamilyGrouping families = new FamilyGrouping();

	private final boolean createdTimestamps;

	private final boolean timestampsInMs;

	SnapshotReader(ExporterProperties exporter) {
		this.createdTimestamps = exporter.getIncludeCreatedTimestamps();
		this.timestampsInMs = exporter.getPrometheusTimestampsInMs();
	}

	Exposition read(MetricSnapshots snapshots) {
		for (MetricSnapshot snapshot : snapshots) {
			if (snapshot.getDataPoints().isEmpty()) {
				continue;
			}
			if (snapshot instanceof CounterSnapshot counter) {
				counter(counter);
			}
			else if (snapshot instanceof GaugeSnapshot gauge) {
				gauge(gauge);
			}
			else if (snapshot instanceof HistogramSnapshot histogram) {
				histogram(histogram);
			}
			else if (snapshot instanceof SummarySnapshot summary) {
				summary(summary);
			}
			else if (snapshot instanceof InfoSnapshot info) {
				info(info);
			}
			else if (snapshot instanceof StateSetSnapshot stateSet) {
				stateSet(stateSet);
			}
			else if (snapshot instanceof UnknownSnapshot unknown) {
				unknown(unknown);
			}
		}
		if (this.createdTimestamps) {
			for (MetricSnapshot snapshot : snapshots) {
				if (!snapshot.getDataPoints().isEmpty() && (snapshot instanceof CounterSnapshot
						|| snapshot instanceof HistogramSnapshot || snapshot instanceof SummarySnapshot)) {
					created(snapshot);
				}
			}
		}
		return this.families.exposition();
	}

	private void counter(CounterSnapshot snapshot) {
		String name = metadata(snapshot.getMetadata(), "_total", "counter");
		for (CounterSnapshot.CounterDataPointSnapshot data : snapshot.getDataPoints()) {
			sample(name, data, null, null, data.getValue());
		}
	}

	private void gauge(GaugeSnapshot snapshot) {
		String name = metadata(snapshot.getMetadata(), "", "gauge");
		for (GaugeSnapshot.GaugeDataPointSnapshot data : snapshot.getDataPoints()) {
			sample(name, data, null, null, data.getValue());
		}
	}

	private void histogram(HistogramSnapshot snapshot) {
		String name = metadata(snapshot.getMetadata(), "", "histogram");
		for (HistogramDataPointSnapshot data : snapshot.getDataPoints()) {
			// A native-only histogram shows its count as the one +Inf bucket.
			ClassicHistogramBuckets buckets = data.getClassicBuckets().isEmpty() ? ClassicHistogramBuckets
				.of(new double[] { Double.POSITIVE_INFINITY }, new long[] { data.getCount() })
					: data.getClassicBuckets();
			long cumulative = 0;
			for (int i = 0; i < buckets.size(); i++) {
				cumulative += buckets.getCount(i);
				sample(name + "_bucket", data, LE, format(buckets.getUpperBound(i)), cumulative);
			}
			if (!snapshot.isGaugeHistogram()) {
				if (data.hasCount()) {
					sample(name + "_count", data, null, null, data.getCount());
				}
				if (data.hasSum()) {
					sample(name + "_sum", data, null, null, data.getSum());
				}
			}
		}
		if (snapshot.isGaugeHistogram()) {
			// The text format has no _gcount and _gsum: they are gauges of their own.
			String gcount = null;
			for (HistogramDataPointSnapshot data : snapshot.getDataPoints()) {
				if (data.hasCount()) {
					gcount = (gcount != null) ? gcount : metadata(snapshot.getMetadata(), "_gcount", "gauge");
					sample(gcount, data, null, null, data.getCount());
				}
			}
			String gsum = null;
			for (HistogramDataPointSnapshot data : snapshot.getDataPoints()) {
				if (data.hasSum()) {
					gsum = (gsum != null) ? gsum : metadata(snapshot.getMetadata(), "_gsum", "gauge");
					sample(gsum, data, null, null, data.getSum());
				}
			}
		}
	}

	private void summary(SummarySnapshot snapshot) {
		String name = null;
		for (SummarySnapshot.SummaryDataPointSnapshot data : snapshot.getDataPoints()) {
			if (data.getQuantiles().size() == 0 && !data.hasCount() && !data.hasSum()) {
				continue;
			}
			name = (name != null) ? name : metadata(snapshot.getMetadata(), "", "summary");
			for (Quantile quantile : data.getQuantiles()) {
				sample(name, data, QUANTILE, format(quantile.getQuantile()), quantile.getValue());
			}
			if (data.hasCount()) {
				sample(name + "_count", data, null, null, data.getCount());
			}
			if (data.hasSum()) {
				sample(name + "_sum", data, null, null, data.getSum());
			}
		}
	}

	private void info(InfoSnapshot snapshot) {
		String name = metadata(snapshot.getMetadata(), "_info", "gauge");
		for (InfoSnapshot.InfoDataPointSnapshot data : snapshot.getDataPoints()) {
			sample(name, data, null, null, 1);
		}
	}

	private void stateSet(StateSetSnapshot snapshot) {
		String name = metadata(snapshot.getMetadata(), "", "gauge");
		for (StateSetSnapshot.StateSetDataPointSnapshot data : snapshot.getDataPoints()) {
			for (int i = 0; i < data.size(); i++) {
				sample(name, data, name, data.getName(i), data.isTrue(i) ? 1 : 0);
			}
		}
	}

	private void unknown(UnknownSnapshot snapshot) {
		String name = metadata(snapshot.getMetadata(), "", "untyped");
		for (UnknownSnapshot.UnknownDataPointSnapshot data : snapshot.getDataPoints()) {
			sample(name, data, null, null, data.getValue());
		}
	}

	private void created(MetricSnapshot snapshot) {
		String name = null;
		for (DataPointSnapshot data : snapshot.getDataPoints()) {
			if (data.hasCreatedTimestamp()) {
				name = (name != null) ? name : metadata(snapshot.getMetadata(), "_created", "gauge");
				long millis = data.getCreatedTimestampMillis();
				sample(name, data, null, null,
						this.timestampsInMs ? millis : TextFormatFloat.parse(secondsWithMillis(millis)));
			}
		}
	}

	/**
	 * Declares a family as its {@code # HELP} and {@code # TYPE} lines do.
	 * @return the family's name
	 */
	private String metadata(MetricMetadata metadata, String suffix, String type) {
		String name = metadata.getPrometheusName() + suffix;
		String help = metadata.getHelp();
		if (help != null && !help.isEmpty()) {
			// Blanks alone after the name are no text to Prometheus: Micrometer's " " for
			// a meter without a description reads as empty help.
			this.families.help(name, help.chars().allMatch(SnapshotReader::isBlank) ? "" : asWritten(help));
		}
		this.families.type(name, type);
		return name;
	}

	private void sample(String name, DataPointSnapshot data, @Nullable String extraLabel, @Nullable String extraValue,
			double value) {
		Labels labels = data.getLabels();
		Map<String, String> read = new LinkedHashMap<>();
		for (int i = 0; i < labels.size(); i++) {
			read.put(labels.getPrometheusName(i), asWritten(labels.getValue(i)));
		}
		if (extraLabel != null) {
			read.put(extraLabel, asWritten(extraValue));
		}
		this.families.sample(new ExposedSample(name, read, value, timestamp(name, data)));
	}

	private @Nullable Long timestamp(String name, DataPointSnapshot data) {
		if (!data.hasScrapeTimestamp()) {
			return null;
		}
		if (!this.timestampsInMs) {
			throw new IllegalArgumentException("The sample " + name + " has the scrape timestamp "
					+ data.getScrapeTimestampMillis() + " ms, which the text format writer writes in seconds ("
					+ secondsWithMillis(data.getScrapeTimestampMillis())
					+ ") and Prometheus 2.42 refuses; set io.prometheus.exporter.prometheusTimestampsInMs=true to"
					+ " write timestamps in milliseconds as the text format 0.0.4 has them");
		}
		return data.getScrapeTimestampMillis();
	}

	/**
	 * Text as it reads back from the scrape, which is written in UTF-8: a lone surrogate,
	 * which UTF-8 cannot encode, is written as {@code ?}.
	 */
	private static String asWritten(String text) {
		for (int i = 0; i < text.length(); i++) {
			if (Character.isSurrogate(text.charAt(i))) {
				return new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
			}
		}
		return text;
	}

	private static boolean isBlank(int c) {
		return c == ' ' || c == '\t';
	}

	/**
	 * A value as the writer puts it in a label: {@code +Inf}, {@code -Inf}, or Java's
	 * shortest decimal form.
	 */
	private static String format(double value) {
		if (value == Double.POSITIVE_INFINITY) {
			return "+Inf";
		}
		if (value == Double.NEGATIVE_INFINITY) {
			return "-Inf";
		}
		return Double.toString(value);
	}

	/**
	 * Milliseconds as the writer puts them when it writes seconds, such as
	 * {@code 1700000000.042}.
	 */
	private static String secondsWithMillis(long millis) {
		long fraction = millis % 1000;
		return (millis / 1000) + "." + ((fraction < 100) ? "0" : "") + ((fraction < 10) ? "0" : "") + fraction;
	}

}
