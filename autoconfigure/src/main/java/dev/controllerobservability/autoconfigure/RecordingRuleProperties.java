package dev.controllerobservability.autoconfigure;

import java.util.Map;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * One recording rule.
 *
 * @param expr PromQL expression.
 * @param labels Extra labels.
 */
public record RecordingRuleProperties(String expr, @DefaultValue Map<String, String> labels) {

}
