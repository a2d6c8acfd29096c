package dev.controllerobservability.internal.test;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Reads the histograms of a scrape in the Prometheus protobuf format with the exposition
 * formats' own generated classes, found by reflection: their package names the bundled
 * protobuf version, which changes with the Prometheus client that Spring Boot manages.
 * Needs {@code io.prometheus:prometheus-metrics-exposition-formats} on the class path.
 */
public final class ProtobufHistograms {

	private static final String GENERATED = "io/prometheus/metrics/expositionformats/generated";

	private ProtobufHistograms() {
	}

	/**
	 * The classic histogram series of every histogram family in a scrape.
	 * @param bytes the scrape, length-delimited metric families
	 * @return the series, in the order of the scrape
	 * @throws Exception if the scrape cannot be read
	 */
	public static List<Series> read(byte[] bytes) throws Exception {
		List<Series> series = new ArrayList<>();
		for (Object family : families(bytes)) {
			if (!"HISTOGRAM".equals(call(family, "getType").toString())) {
				continue;
			}
			String name = (String) call(family, "getName");
			for (Object metric : (List<?>) call(family, "getMetricList")) {
				Map<String, String> labels = new TreeMap<>();
				for (Object pair : (List<?>) call(metric, "getLabelList")) {
					labels.put((String) call(pair, "getName"), (String) call(pair, "getValue"));
				}
				Object histogram = call(metric, "getHistogram");
				Map<Double, Long> buckets = new LinkedHashMap<>();
				for (Object bucket : (List<?>) call(histogram, "getBucketList")) {
					buckets.put((Double) call(bucket, "getUpperBound"), (Long) call(bucket, "getCumulativeCount"));
				}
				long count = (Long) call(histogram, "getSampleCount");
				// The +Inf bucket is the sample count, whether the writer repeats it or
				// not.
				buckets.putIfAbsent(Double.POSITIVE_INFINITY, count);
				series.add(new Series(name, labels, buckets, count, (Double) call(histogram, "getSampleSum")));
			}
		}
		return series;
	}

	/**
	 * Every metric family of a scrape, as the generated {@code MetricFamily} messages,
	 * which are equal when every field, native buckets included, is.
	 * @param bytes the scrape, length-delimited metric families
	 * @return the families, in the order of the scrape
	 * @throws Exception if the scrape cannot be read
	 */
	public static List<Object> families(byte[] bytes) throws Exception {
		Class<?> familyClass = metricFamilyClass();
		InputStream in = new ByteArrayInputStream(bytes);
		List<Object> families = new ArrayList<>();
		Object family;
		while ((family = familyClass.getMethod("parseDelimitedFrom", InputStream.class).invoke(null, in)) != null) {
			families.add(family);
		}
		return families;
	}

	/**
	 * The name of a family {@link #families read} from a scrape.
	 * @param family the family
	 * @return its name
	 * @throws Exception if it has none
	 */
	public static String name(Object family) throws Exception {
		return (String) call(family, "getName");
	}

	private static Class<?> metricFamilyClass() throws Exception {
		URL url = ProtobufHistograms.class.getClassLoader().getResource(GENERATED);
		if (url == null) {
			throw new IllegalStateException("No generated classes of prometheus-metrics-exposition-formats");
		}
		JarURLConnection connection = (JarURLConnection) url.openConnection();
		try (JarFile file = new JarFile(Path.of(connection.getJarFileURL().toURI()).toFile())) {
			String entry = file.stream()
				.map(JarEntry::getName)
				.filter((name) -> name
					.matches(GENERATED + "/com_google_protobuf_[0-9_]+/Metrics\\$MetricFamily\\.class"))
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("No generated MetricFamily class in " + file.getName()));
			return Class.forName(entry.substring(0, entry.length() - ".class".length()).replace('/', '.'));
		}
	}

	private static Object call(Object target, String method) throws Exception {
		return target.getClass().getMethod(method).invoke(target);
	}

	/**
	 * One histogram series.
	 *
	 * @param family the family name
	 * @param labels the series' labels
	 * @param buckets cumulative counts by upper bound, {@code +Inf} included
	 * @param count the sample count
	 * @param sum the sample sum
	 */
	public record Series(String family, Map<String, String> labels, Map<Double, Long> buckets, long count, double sum) {
	}

}
