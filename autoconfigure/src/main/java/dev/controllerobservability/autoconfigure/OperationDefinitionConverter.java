package dev.controllerobservability.autoconfigure;

import org.springframework.core.convert.converter.Converter;

/**
 * Reads an operation declared without settings, {@code bind: ~} or {@code bind: ""} in
 * YAML or {@code ...definitions.bind=} elsewhere, as that operation with default
 * settings, as {@code bind: {}} reads.
 */
class OperationDefinitionConverter implements Converter<String, OperationDefinitionProperties> {

	@Override
	public OperationDefinitionProperties convert(String source) {
		if (!source.isBlank()) {
			throw new IllegalArgumentException("an operation's definition holds subsystem, description, buckets and "
					+ "stability; it is not a single text");
		}
		return OperationDefinitionProperties.defaults();
	}

}
