package dev.controllerobservability.test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A parsed Prometheus text-format scrape, for asserting exact names, labels and values.
 */
public final class PrometheusScrape {

	private static final Pattern SAMPLE = Pattern
		.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})?\\s+(\\S+)(?:\\s+\\S+)?$");

	private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

	private final String text;

	private final Map<String, String> types = new LinkedHashMap<>();

	private final Map<String, String> helps = new LinkedHashMap<>();

	private final List<Sample> samples = new ArrayList<>();

	private PrometheusScrape(String text) {
		this.text = text;
		for (String line : text.split("\n")) {
			if (line.startsWith("# TYPE ")) {
				String[] parts = line.substring(7).split(" ", 2);
				this.types.put(parts[0], parts[1].trim());
			}
			else if (line.startsWith("# HELP ")) {
				String[] parts = line.substring(7).split(" ", 2);
				this.helps.put(parts[0], (parts.length > 1) ? parts[1] : "");
			}
			else if (!line.isBlank() && !line.startsWith("#")) {
				Matcher matcher = SAMPLE.matcher(line);
				if (!matcher.matches()) {
					throw new IllegalStateException("Unparseable sample line: " + line);
				}
				Map<String, String> labels = new LinkedHashMap<>();
				if (matcher.group(2) != null) {
					Matcher label = LABEL.matcher(matcher.group(2));
					while (label.find()) {
						labels.put(label.group(1), label.group(2));
					}
				}
				this.samples.add(new Sample(matcher.group(1), labels, Double.parseDouble(matcher.group(3))));
			}
		}
	}

	/**
	 * Scrapes a URL over HTTP.
	 * @param url the endpoint, such as {@code http://localhost:8080/actuator/prometheus}
	 * @return the parsed scrape
	 */
	public static PrometheusScrape fetch(String url) throws IOException, InterruptedException {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() != 200) {
			throw new IllegalStateException(
					"GET " + url + " answered " + response.statusCode() + ": " + response.body());
		}
		return parse(response.body());
	}

	public static PrometheusScrape parse(String text) {
		return new PrometheusScrape(text);
	}

	public String text() {
		return this.text;
	}

	/** Family names, as declared by {@code # TYPE} lines. */
	public Set<String> families() {
		return new TreeSet<>(this.types.keySet());
	}

	public String type(String family) {
		return this.types.get(family);
	}

	public String help(String family) {
		return this.helps.get(family);
	}

	/** Samples of one sample name (such as {@code x_bucket}). */
	public List<Sample> samples(String name) {
		return this.samples.stream().filter((sample) -> sample.name().equals(name)).toList();
	}

	/** The value of the one sample with this name and exactly these labels. */
	public double value(String name, Map<String, String> labels) {
		List<Sample> matching = samples(name).stream().filter((sample) -> sample.labels().equals(labels)).toList();
		if (matching.size() != 1) {
			throw new AssertionError("Expected one sample " + name + labels + " but found " + matching.size()
					+ " among " + samples(name));
		}
		return matching.get(0).value();
	}

	/** The distinct label key sets of one sample name. */
	public Set<Set<String>> labelKeySets(String name) {
		return samples(name).stream()
			.map((sample) -> (Set<String>) new TreeSet<>(sample.labels().keySet()))
			.collect(Collectors.toSet());
	}

	/** One sample: name, labels in order of appearance, value. */
	public record Sample(String name, Map<String, String> labels, double value) {
	}

}
