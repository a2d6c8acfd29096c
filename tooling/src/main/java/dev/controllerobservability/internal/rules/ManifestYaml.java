package dev.controllerobservability.internal.rules;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The one YAML style of every rendered manifest and rules file: block style, list items
 * indented under their key, lines up to 120 characters.
 */
public final class ManifestYaml {

	private ManifestYaml() {
	}

	/**
	 * Renders a document.
	 * @param document maps, lists and scalars
	 * @return the YAML text
	 */
	public static String dump(Object document) {
		DumperOptions options = new DumperOptions();
		options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
		options.setIndicatorIndent(2);
		options.setIndentWithIndicator(true);
		options.setWidth(120);
		return new Yaml(options).dump(document);
	}

}
