package dev.controllerobservability.demo.kubernetes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.yaml.snakeyaml.Yaml;

/**
 * The Prometheus agent configuration that docs/operations.md shows for replicas, read
 * from the docs so that the replica test runs what the docs say.
 */
final class HighAvailabilityDocs {

	static final Path OPERATIONS = Path.of("..", "docs", "operations.md");

	static final String AGENT_HEADING = "### The agent's configuration";

	private HighAvailabilityDocs() {
	}

	/**
	 * The first YAML block under the agent heading.
	 * @return its text
	 */
	static String agentConfig() {
		String docs;
		try {
			docs = Files.readString(OPERATIONS);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		int heading = docs.indexOf(AGENT_HEADING);
		if (heading < 0) {
			throw new IllegalStateException(OPERATIONS + " has no heading '" + AGENT_HEADING + "'");
		}
		int start = docs.indexOf("```yaml\n", heading) + "```yaml\n".length();
		return docs.substring(start, docs.indexOf("```", start));
	}

	/**
	 * The first scrape job of the agent configuration.
	 * @return its {@code job_name} and {@code metrics_path}
	 */
	@SuppressWarnings("unchecked")
	static Map<String, Object> agentJob() {
		Map<String, Object> config = new Yaml().load(agentConfig());
		return ((java.util.List<Map<String, Object>>) config.get("scrape_configs")).get(0);
	}

	/**
	 * The external labels of the agent configuration.
	 * @return label name to value
	 */
	@SuppressWarnings("unchecked")
	static Map<String, String> agentExternalLabels() {
		Map<String, Object> config = new Yaml().load(agentConfig());
		return (Map<String, String>) ((Map<String, Object>) config.get("global")).get("external_labels");
	}

}
