package dev.controllerobservability.operations;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import io.micrometer.core.instrument.Tags;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Operations traced by OpenTelemetry through {@code micrometer-tracing-bridge-otel} and
 * {@code spring-boot-micrometer-tracing-opentelemetry}, read from an in-memory span
 * exporter.
 */
@Import(OpenTelemetryOperationTracingIntegrationTests.InMemoryExport.class)
class OpenTelemetryOperationTracingIntegrationTests extends AbstractOperationTracingIntegrationTests {

	private static final AttributeKey<String> EXCEPTION_TYPE = AttributeKey.stringKey("exception.type");

	private static final AttributeKey<String> EXCEPTION_MESSAGE = AttributeKey.stringKey("exception.message");

	private static final AttributeKey<String> PROVISIONER_KEY = AttributeKey.stringKey("provisioner");

	@Autowired
	private InMemorySpanExporter exporter;

	@Autowired
	private ControllerOperations operations;

	@Test
	void recordsTheRealExceptionAsTheOnlyExceptionEventOfAFailedSpan() {
		IllegalStateException failure = new IllegalStateException("no capacity in us-east-1b");
		assertThatThrownBy(() -> this.operations.observe("launch", Tags.of("provisioner", "otel-event"), () -> {
			throw failure;
		})).isSameAs(failure);
		SpanData span = await()
			.until(() -> this.exporter.getFinishedSpanItems()
				.stream()
				.filter((candidate) -> "otel-event".equals(candidate.getAttributes().get(PROVISIONER_KEY)))
				.findFirst(), Optional::isPresent)
			.orElseThrow();
		assertThat(span.getName()).isEqualTo("launch");
		assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
		assertThat(span.getEvents()).singleElement().satisfies((event) -> {
			assertThat(event.getName()).isEqualTo("exception");
			assertThat(event.getAttributes().get(EXCEPTION_TYPE)).isEqualTo(IllegalStateException.class.getName());
			assertThat(event.getAttributes().get(EXCEPTION_MESSAGE)).isEqualTo("no capacity in us-east-1b");
		});
		assertThat(span.getAttributes().get(AttributeKey.stringKey("error"))).isNull();
	}

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
