package dev.controllerobservability.internal.metrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.PrometheusNaming;

import dev.controllerobservability.internal.metrics.NativeHistogram.DataPoint;
import dev.controllerobservability.internal.metrics.NativeHistogram.NativeCounts;
import dev.controllerobservability.internal.metrics.NativeHistogram.Reading;
import dev.controllerobservability.internal.metrics.ScrapeBytes.Escape;

/**
 * Renders {@link NativeHistogram}s straight to the bytes the standard writers of
 * prometheus-metrics-exposition-formats write for their snapshots: the same lines in the
 * text formats, the same messages in protobuf. Each series is read once into a reused
 * {@link Reading}; names and {@code le} values are encoded once per histogram; nothing is
 * allocated per bucket or per series but the text of a sum.
 */
final class HistogramRenderer {

	/** {@code MetricType.HISTOGRAM} of the protobuf format. */
	private static final int HISTOGRAM_TYPE = 4;

	private final ScrapeFormat format;

	private final ScrapeBytes out;

	/** One series' labels, encoded for the format. */
	private final ScrapeBytes labels = ScrapeBytes.kept(256);

	/** One protobuf Metric, then one Histogram inside it. */
	private final ScrapeBytes metric = ScrapeBytes.kept(1024);

	private final ScrapeBytes histogram = ScrapeBytes.kept(1024);

	private final Spans spans = new Spans();

	HistogramRenderer(ScrapeFormat format, ScrapeBytes out) {
		this.format = format;
		this.out = out;
	}

	/**
	 * Whether a histogram's names need nothing of the standard writers' escaping, which
	 * this renderer leaves out: its name and label names are legacy Prometheus names.
	 */
	static boolean renders(NativeHistogram histogram) {
		String name = histogram.getPrometheusName();
		if (!PrometheusNaming.isValidLegacyMetricName(name)
				|| !name.equals(new MetricMetadata(name, histogram.help()).getPrometheusName())) {
			return false;
		}
		Iterator<DataPoint> points = histogram.dataPoints().iterator();
		if (points.hasNext()) {
			// Every series of a histogram has the same label names.
			Labels labels = points.next().labels();
			for (int i = 0; i < labels.size(); i++) {
				if (!PrometheusNaming.isValidLegacyLabelName(labels.getPrometheusName(i))) {
					return false;
				}
			}
		}
		return true;
	}

	/**
	 * Renders one histogram, its series in the order of their labels as in a snapshot;
	 * nothing if it has no series, as the standard writers skip an empty family.
	 */
	void render(NativeHistogram histogram) throws IOException {
		DataPoint[] points = histogram.sortedDataPoints();
		if (points.length == 0) {
			return;
		}
		Reading reading = new Reading(histogram.upperBounds().length);
		if (this.format == ScrapeFormat.PROMETHEUS_PROTOBUF) {
			renderProtobuf(histogram, points, reading);
		}
		else {
			renderText(histogram, points, reading);
		}
	}

	private void renderText(NativeHistogram histogram, DataPoint[] points, Reading reading) throws IOException {
		boolean openMetrics = this.format == ScrapeFormat.OPENMETRICS_TEXT;
		String name = histogram.getPrometheusName();
		String help = histogram.help();
		ScrapeBytes out = this.out;
		if (openMetrics) {
			type(name);
			help(name, help, Escape.QUOTED);
		}
		else {
			help(name, help, Escape.HELP);
			type(name);
		}
		byte[] bucket = ascii(name + "_bucket{");
		byte[] count = ascii(name + "_count");
		byte[] sum = ascii(name + "_sum");
		double[] bounds = histogram.upperBounds();
		byte[][] le = new byte[bounds.length][];
		for (int i = 0; i < bounds.length; i++) {
			byte[] bound = ScrapeBytes.doubleText(bounds[i]);
			le[i] = new byte[bound.length + 7];
			System.arraycopy(ascii("le=\""), 0, le[i], 0, 4);
			System.arraycopy(bound, 0, le[i], 4, bound.length);
			System.arraycopy(ascii("\"} "), 0, le[i], 4 + bound.length, 3);
		}
		for (DataPoint point : points) {
			point.read(reading);
			textLabels(point.labels());
			boolean labelled = this.labels.size() > 0;
			long cumulative = 0;
			for (int i = 0; i < bounds.length; i++) {
				cumulative += reading.classicCounts[i];
				out.write(bucket);
				this.labels.writeTo(out);
				if (labelled) {
					out.write(',');
				}
				out.write(le[i]);
				out.writeLong(cumulative);
				out.write('\n');
			}
			long total = reading.count();
			boolean hasCount = total >= 0;
			boolean hasSum = !Double.isNaN(reading.sum);
			// OpenMetrics has both or neither.
			if (hasCount && (hasSum || !openMetrics)) {
				seriesName(count, labelled);
				out.writeLong(total);
				out.write('\n');
			}
			if (hasSum && (hasCount || !openMetrics)) {
				seriesName(sum, labelled);
				out.writeDouble(reading.sum);
				out.write('\n');
			}
		}
	}

	private void help(String name, String help, Escape escape) throws IOException {
		if (!help.isEmpty()) {
			this.out.write(ascii("# HELP "));
			this.out.writeUtf8(name, Escape.NONE);
			this.out.write(' ');
			this.out.writeUtf8(help, escape);
			this.out.write('\n');
		}
	}

	private void type(String name) throws IOException {
		this.out.write(ascii("# TYPE "));
		this.out.writeUtf8(name, Escape.NONE);
		this.out.write(ascii(" histogram\n"));
	}

	/** A series name, its labels in braces if it has any, and a space. */
	private void seriesName(byte[] name, boolean labelled) throws IOException {
		this.out.write(name);
		if (labelled) {
			this.out.write('{');
			this.labels.writeTo(this.out);
			this.out.write('}');
		}
		this.out.write(' ');
	}

	/** {@code name="value",...}, values escaped. */
	private void textLabels(Labels labels) throws IOException {
		ScrapeBytes text = this.labels;
		text.reset();
		for (int i = 0; i < labels.size(); i++) {
			if (i > 0) {
				text.write(',');
			}
			text.writeUtf8(labels.getPrometheusName(i), Escape.NONE);
			text.write('=');
			text.write('"');
			text.writeUtf8(labels.getValue(i), Escape.QUOTED);
			text.write('"');
		}
	}

	private void renderProtobuf(NativeHistogram histogram, DataPoint[] points, Reading reading) throws IOException {
		double[] bounds = histogram.upperBounds();
		ScrapeBytes family = ScrapeBytes.kept(points.length * (128 + 16 * bounds.length));
		for (DataPoint point : points) {
			point.read(reading);
			ScrapeBytes metric = this.metric;
			metric.reset();
			// Metric.label (1): LabelPair {name (1), value (2)}.
			Labels labels = point.labels();
			for (int i = 0; i < labels.size(); i++) {
				String labelName = labels.getPrometheusName(i);
				String value = labels.getValue(i);
				int nameLength = ScrapeBytes.utf8Length(labelName);
				int valueLength = ScrapeBytes.utf8Length(value);
				metric.write(0x0A);
				metric.writeVarint(2 + ScrapeBytes.varintSize(nameLength) + nameLength
						+ ScrapeBytes.varintSize(valueLength) + valueLength);
				metric.writeStringField(0x0A, labelName);
				metric.writeStringField(0x12, value);
			}
			protobufHistogram(histogram, reading);
			// Metric.histogram (7).
			metric.write(0x3A);
			metric.writeVarint(this.histogram.size());
			this.histogram.writeTo(metric);
			// MetricFamily.metric (4).
			family.write(0x22);
			family.writeVarint(metric.size());
			metric.writeTo(family);
		}
		String name = histogram.getPrometheusName();
		String help = histogram.help();
		int nameLength = ScrapeBytes.utf8Length(name);
		int helpLength = ScrapeBytes.utf8Length(help);
		int header = 1 + ScrapeBytes.varintSize(nameLength) + nameLength + 1 + ScrapeBytes.varintSize(helpLength)
				+ helpLength + 2;
		// Length-delimited, as writeDelimitedTo writes a family.
		this.out.writeVarint(header + family.size());
		this.out.writeStringField(0x0A, name);
		this.out.writeStringField(0x12, help);
		this.out.write(0x18);
		this.out.write(HISTOGRAM_TYPE);
		family.writeTo(this.out);
	}

	/** One Histogram message, its fields in the order of their numbers. */
	private void protobufHistogram(NativeHistogram histogram, Reading reading) throws IOException {
		ScrapeBytes message = this.histogram;
		message.reset();
		long total = reading.count();
		if (total >= 0) {
			// sample_count (1)
			message.write(0x08);
			message.writeVarint(total);
		}
		if (!Double.isNaN(reading.sum)) {
			// sample_sum (2)
			message.write(0x11);
			message.writeFixed64(reading.sum);
		}
		double[] bounds = histogram.upperBounds();
		long cumulative = 0;
		for (int i = 0; i < bounds.length; i++) {
			cumulative += reading.classicCounts[i];
			// bucket (3): Bucket {cumulative_count (1), upper_bound (2)}
			message.write(0x1A);
			message.writeVarint(1 + ScrapeBytes.varintSize(cumulative) + 9);
			message.write(0x08);
			message.writeVarint(cumulative);
			message.write(0x11);
			message.writeFixed64(bounds[i]);
		}
		// schema (5), sint32
		message.write(0x28);
		message.writeVarint(zigZag(reading.schema) & 0xFFFFFFFFL);
		// zero_threshold (6), zero_count (7)
		message.write(0x31);
		message.writeFixed64(histogram.zeroThreshold());
		message.write(0x38);
		message.writeVarint(reading.zeroCount);
		// negative_span (9), negative_delta (10); positive_span (12), positive_delta (13)
		buckets(reading.negative, 0x4A, 0x50);
		buckets(reading.positive, 0x62, 0x68);
	}

	/** Spans and deltas of one sign, as the standard writer lays them out. */
	private void buckets(NativeCounts counts, int spanTag, int deltaTag) throws IOException {
		if (counts.size() == 0) {
			return;
		}
		Spans spans = this.spans;
		spans.of(counts);
		ScrapeBytes message = this.histogram;
		for (int i = 0; i < spans.spans; i++) {
			int offset = zigZag(spans.offsets[i]);
			message.write(spanTag);
			message.writeVarint(2 + ScrapeBytes.varintSize(offset & 0xFFFFFFFFL)
					+ ScrapeBytes.varintSize(spans.lengths[i] & 0xFFFFFFFFL));
			message.write(0x08);
			message.writeVarint(offset & 0xFFFFFFFFL);
			message.write(0x10);
			message.writeVarint(spans.lengths[i] & 0xFFFFFFFFL);
		}
		for (int i = 0; i < spans.deltas; i++) {
			long delta = spans.deltaValues[i];
			message.write(deltaTag);
			message.writeVarint((delta << 1) ^ (delta >> 63));
		}
	}

	private static int zigZag(int value) {
		return (value << 1) ^ (value >> 31);
	}

	private static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

	/**
	 * The spans and deltas of native buckets: a gap of up to two empty buckets is filled
	 * with them, a longer one starts a new span, as the standard protobuf writer does.
	 */
	private static final class Spans {

		private int[] offsets = new int[8];

		private int[] lengths = new int[8];

		private long[] deltaValues = new long[128];

		private int spans;

		private int deltas;

		void of(NativeCounts counts) {
			this.spans = 0;
			this.deltas = 0;
			int offset = counts.index(0);
			int length = 0;
			int previousIndex = offset;
			long previousCount = 0;
			for (int i = 0; i < counts.size(); i++) {
				int index = counts.index(i);
				if (index > previousIndex + 1) {
					if (index <= previousIndex + 3) {
						while (index > previousIndex + 1) {
							length++;
							previousIndex++;
							delta(-previousCount);
							previousCount = 0;
						}
					}
					else {
						span(offset, length);
						offset = index - (previousIndex + 1);
						length = 0;
					}
				}
				length++;
				previousIndex = index;
				delta(counts.count(i) - previousCount);
				previousCount = counts.count(i);
			}
			span(offset, length);
		}

		private void span(int offset, int length) {
			if (this.spans == this.offsets.length) {
				this.offsets = Arrays.copyOf(this.offsets, this.spans * 2);
				this.lengths = Arrays.copyOf(this.lengths, this.spans * 2);
			}
			this.offsets[this.spans] = offset;
			this.lengths[this.spans++] = length;
		}

		private void delta(long delta) {
			if (this.deltas == this.deltaValues.length) {
				this.deltaValues = Arrays.copyOf(this.deltaValues, this.deltas * 2);
			}
			this.deltaValues[this.deltas++] = delta;
		}

	}

}
