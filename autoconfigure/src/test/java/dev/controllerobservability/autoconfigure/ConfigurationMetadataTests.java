package dev.controllerobservability.autoconfigure;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.context.properties.bind.Binder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration metadata an IDE completes from states every default the properties
 * really have, including those the annotation processor cannot read from an expression.
 */
class ConfigurationMetadataTests {

	private static final String PREFIX = ControllerObservabilityProperties.PREFIX + ".";

	private final JsonMapper mapper = JsonMapper.builder().build();

	private final JsonNode metadata = this.mapper
		.readTree(Path.of("target/classes/META-INF/spring-configuration-metadata.json").toFile());

	@Test
	void metadataStatesEveryDefaultOfTheProperties() {
		BeanWrapper defaults = new BeanWrapperImpl(defaults());
		List<String> checked = new ArrayList<>();
		for (JsonNode property : this.metadata.get("properties")) {
			String name = property.get("name").asString();
			if (!name.startsWith(PREFIX)) {
				continue;
			}
			// An alert's "for" is bound by @Name to the component forDuration.
			String path = camelCase(name.substring(PREFIX.length())).replaceAll("\\.for$", ".forDuration");
			Object value = defaults.getPropertyValue(path);
			if (value == null || value instanceof Map<?, ?>) {
				continue;
			}
			JsonNode stated = property.get("defaultValue");
			assertThat(stated).as(name).isNotNull();
			if (value instanceof List<?> list) {
				assertThat(numbersAsDoubles(this.mapper.convertValue(stated, List.class))).as(name)
					.isEqualTo(numbersAsDoubles(list));
			}
			else if (value instanceof Number || value instanceof Boolean) {
				assertThat(stated.asString()).as(name).isEqualTo(String.valueOf(value));
			}
			checked.add(name);
		}
		assertThat(checked).contains(PREFIX + "duration-buckets", PREFIX + "operations.tags",
				PREFIX + "operations.max-operations", PREFIX + "max-series-per-metric");
	}

	@Test
	void operationsCarryNoTagKeysUnlessConfigured() {
		assertThat(defaults().operations().tags()).isEmpty();
		JsonNode tags = property(PREFIX + "operations.tags");
		assertThat(tags.get("defaultValue").isArray()).isTrue();
		assertThat(tags.get("defaultValue").size()).isZero();
	}

	@Test
	void durationBucketsDefaultToControllerRuntimesFortyReconcileBuckets() {
		JsonNode buckets = property(PREFIX + "duration-buckets").get("defaultValue");
		assertThat(buckets.size()).isEqualTo(40);
		assertThat(buckets.get(0).asDouble()).isEqualTo(0.005);
		assertThat(buckets.get(39).asDouble()).isEqualTo(60.0);
	}

	/** The properties as bound from no configuration at all. */
	private static ControllerObservabilityProperties defaults() {
		return new Binder().bindOrCreate(ControllerObservabilityProperties.PREFIX,
				ControllerObservabilityProperties.class);
	}

	private JsonNode property(String name) {
		for (JsonNode property : this.metadata.get("properties")) {
			if (property.get("name").asString().equals(name)) {
				return property;
			}
		}
		throw new AssertionError("No metadata for " + name);
	}

	/** The processor writes 1.0 as 1: compare numbers by value. */
	private static List<Object> numbersAsDoubles(List<?> values) {
		return values.stream()
			.map((value) -> (value instanceof Number number) ? (Object) number.doubleValue() : value)
			.toList();
	}

	private static String camelCase(String kebab) {
		StringBuilder camel = new StringBuilder();
		boolean upper = false;
		for (char c : kebab.toCharArray()) {
			if (c == '-') {
				upper = true;
			}
			else {
				camel.append(upper ? Character.toUpperCase(c) : c);
				upper = false;
			}
		}
		return camel.toString();
	}

}
