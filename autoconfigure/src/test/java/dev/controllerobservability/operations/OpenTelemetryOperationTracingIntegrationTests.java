package dev.controllerobservability.operations;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Operations traced by OpenTelemetry through {@code micrometer-tracing-bridge-otel} and
 * {@code spring-boot-micrometer-tracing-opentelemetry}, read from an in-memory span
 * exporter.
 */
@Import(OpenTelemetryOperationTracingIntegrationTests.InMemoryExport.class)
class OpenTelemetryOperationTracingIntegrationTests extends AbstractOperationTracingIntegrationTests {

	private static final AttributeKey<String> EXCEPTION_TYPE = AttributeKey.stringKey("exception.type");

	private static final AttributeKey<String> EXCEPTION_MESSAGE = AttributeKey.stringKey("exception.message");

	@Autowired
	private InMemorySpanExporter exporter;

	@Override
	protected List<RecordedSpan> finishedSpans() {
		return this.exporter.getFinishedSpanItems()
			.stream()
			.map(OpenTelemetryOperationTracingIntegrationTests::record)
			.toList();
	}

	private static RecordedSpan record(SpanData span) {
		Map<String, String> tags = new TreeMap<>();
		span.getAttributes().forEach((key, value) -> tags.put(key.getKey(), String.valueOf(value)));
		List<String> exceptions = span.getEvents()
			.stream()
			.filter((event) -> event.getName().equals("exception"))
			.map(EventData::getAttributes)
			.map((attributes) -> attributes.get(EXCEPTION_TYPE) + ": " + attributes.get(EXCEPTION_MESSAGE))
			.toList();
		String parent = span.getParentSpanContext().isValid() ? span.getParentSpanId() : null;
		return new RecordedSpan(span.getName(), span.getTraceId(), span.getSpanId(), parent, tags,
				span.getStatus().getStatusCode() == StatusCode.ERROR, exceptions);
	}

	/** An exporter a Boot application picks up as it would an OTLP one. */
	@TestConfiguration(proxyBeanMethods = false)
	static class InMemoryExport {

		@Bean
		InMemorySpanExporter inMemorySpanExporter() {
			return InMemorySpanExporter.create();
		}

	}

}
