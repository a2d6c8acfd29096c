package dev.controllerobservability.autoconfigure.strictness;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.env.OriginTrackedMapPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.TextResourceOrigin;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.Resource;

import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties;

/**
 * Finds operations declared in YAML with an empty map, {@code bind: {}}. Spring's YAML
 * loader flattens an empty map to no property at all, so the binder never sees the
 * operation; this reads the YAML documents the environment was loaded from again and
 * returns those names. Only documents that are active (that contribute a property source)
 * count, so profile-specific documents keep their meaning.
 */
final class EmptyOperationDefinitions {

	private static final ConfigurationPropertyName DEFINITIONS = ConfigurationPropertyName
		.of(ControllerObservabilityProperties.PREFIX + ".operations.definitions");

	private EmptyOperationDefinitions() {
	}

	/**
	 * Names of the operations declared as {@code <op>: {}} in the environment's YAML
	 * sources.
	 * @param environment the environment
	 * @return the operation names as written, in order of appearance, each with the place
	 * of its key in the YAML resource
	 */
	static Map<String, Origin> find(Environment environment) {
		Map<String, Origin> operations = new LinkedHashMap<>();
		if (!(environment instanceof ConfigurableEnvironment configurable)) {
			return operations;
		}
		for (Map.Entry<Resource, Set<Integer>> document : activeYamlLines(configurable).entrySet()) {
			emptyMaps(document.getKey(), document.getValue()).forEach((path, mark) -> {
				ConfigurationPropertyName name = ConfigurationPropertyName.adapt(path, '.');
				if (DEFINITIONS.isParentOf(name)) {
					operations.putIfAbsent(name.getLastElement(ConfigurationPropertyName.Form.ORIGINAL),
							new TextResourceOrigin(document.getKey(),
									new TextResourceOrigin.Location(mark.getLine(), mark.getColumn())));
				}
			});
		}
		return operations;
	}

	/** The YAML resources of the environment, with lines of their active properties. */
	private static Map<Resource, Set<Integer>> activeYamlLines(ConfigurableEnvironment environment) {
		Map<Resource, Set<Integer>> lines = new LinkedHashMap<>();
		for (PropertySource<?> source : environment.getPropertySources()) {
			if (source instanceof OriginTrackedMapPropertySource tracked) {
				for (String name : tracked.getPropertyNames()) {
					Origin origin = tracked.getOrigin(name);
					if (origin instanceof TextResourceOrigin text && isYaml(text.getResource())
							&& text.getLocation() != null) {
						lines.computeIfAbsent(text.getResource(), (resource) -> new TreeSet<>())
							.add(text.getLocation().getLine());
					}
				}
			}
		}
		return lines;
	}

	private static boolean isYaml(Resource resource) {
		String filename = (resource != null) ? resource.getFilename() : null;
		return filename != null && (filename.endsWith(".yaml") || filename.endsWith(".yml"));
	}

	/**
	 * Dotted paths of the empty maps in the documents of a resource that hold a line,
	 * each with the place of its key.
	 */
	private static Map<String, Mark> emptyMaps(Resource resource, Set<Integer> activeLines) {
		Map<String, Mark> paths = new LinkedHashMap<>();
		try (Reader reader = new InputStreamReader(resource.getInputStream(), StandardCharsets.UTF_8)) {
			for (Node document : new Yaml(new LoaderOptions()).composeAll(reader)) {
				int first = document.getStartMark().getLine();
				int last = document.getEndMark().getLine();
				if (activeLines.stream().anyMatch((line) -> line >= first && line <= last)) {
					collect(document, "", document.getStartMark(), paths);
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// Spring Boot has read this resource already; what it could not read, it
			// reports.
		}
		return paths;
	}

	/**
	 * Flattens as Spring's YAML loader does, but records empty maps with the place of
	 * their key.
	 */
	private static void collect(Node node, String path, Mark place, Map<String, Mark> paths) {
		if (node instanceof MappingNode mapping) {
			if (mapping.getValue().isEmpty() && !path.isEmpty()) {
				paths.putIfAbsent(path, place);
			}
			for (NodeTuple entry : mapping.getValue()) {
				if (entry.getKeyNode() instanceof ScalarNode key && key.getValue().equals("<<")) {
					merge(entry.getValueNode(), path, paths);
				}
				else if (entry.getKeyNode() instanceof ScalarNode name) {
					collect(entry.getValueNode(), child(path, name.getValue()), name.getStartMark(), paths);
				}
			}
		}
		else if (node instanceof SequenceNode sequence) {
			for (int i = 0; i < sequence.getValue().size(); i++) {
				Node item = sequence.getValue().get(i);
				collect(item, path + "[" + i + "]", item.getStartMark(), paths);
			}
		}
	}

	private static void merge(Node merged, String path, Map<String, Mark> paths) {
		if (merged instanceof SequenceNode sequence) {
			sequence.getValue().forEach((node) -> collect(node, path, node.getStartMark(), paths));
		}
		else {
			collect(merged, path, merged.getStartMark(), paths);
		}
	}

	private static String child(String path, String key) {
		if (path.isEmpty()) {
			return key;
		}
		return key.startsWith("[") ? path + key : path + "." + key;
	}

}
