package dev.controllerobservability.test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.exposition.Exposition;

/**
 * A parsed Prometheus text-format scrape, for asserting exact names, labels and values.
 * It reads the scrape with the same {@link Exposition} reader as the linter and the
 * reference docs. Example:
 *
 * <pre>{@code
 * PrometheusScrape scrape = PrometheusScrape.parse(registry.scrape());
 * assertThat(scrape.value("karpenter_nodes_created_total", Map.of("provisioner", "gpu"))).isEqualTo(1.0);
 * }</pre>
 */
public final class PrometheusScrape {

	private final String text;

	private final Exposition exposition;

	private final List<Sample> samples;

	private PrometheusScrape(String text) {
		this.text = text;
		try {
			this.exposition = Exposition.parse(text);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("Unparseable scrape: " + ex.getMessage(), ex);
		}
		this.samples = this.exposition.samples()
			.stream()
			.map((sample) -> new Sample(sample.name(), sample.labels(), sample.value()))
			.toList();
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

	/**
	 * Reads a scrape.
	 * @param text the scrape in the Prometheus text format
	 * @return the parsed scrape
	 * @throws IllegalStateException for a line that is not of the text format
	 */
	public static PrometheusScrape parse(String text) {
		return new PrometheusScrape(text);
	}

	/**
	 * The scrape as read.
	 * @return the text
	 */
	public String text() {
		return this.text;
	}

	/** Family names, sorted. */
	public Set<String> families() {
		return this.exposition.families()
			.stream()
			.map(ExposedFamily::name)
			.collect(Collectors.toCollection(TreeSet::new));
	}

	/**
	 * The type of a family.
	 * @param family the family name
	 * @return its type, such as {@code histogram}, or {@code null} when not exposed
	 */
	public @Nullable String type(String family) {
		return this.exposition.family(family).map(ExposedFamily::type).orElse(null);
	}

	/**
	 * The help text of a family, unescaped.
	 * @param family the family name
	 * @return its help text, or {@code null} when not exposed or without help
	 */
	public @Nullable String help(String family) {
		return this.exposition.family(family).map(ExposedFamily::help).orElse(null);
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
