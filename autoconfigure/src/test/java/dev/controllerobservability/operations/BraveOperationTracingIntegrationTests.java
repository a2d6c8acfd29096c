package dev.controllerobservability.operations;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import io.micrometer.core.instrument.Tags;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Operations traced by Brave through {@code micrometer-tracing-bridge-brave} and
 * {@code spring-boot-micrometer-tracing-brave}, read from a {@link SpanHandler} that
 * keeps every finished span.
 */
@Import(BraveOperationTracingIntegrationTests.InMemoryExport.class)
class BraveOperationTracingIntegrationTests extends AbstractOperationTracingIntegrationTests {

	@Autowired
	private FinishedSpans finished;

	@Autowired
	private ControllerOperations operations;

	@Test
	void marksAFailedSpanWithAnErrorTagHoldingTheMessage() {
		IllegalStateException failure = new IllegalStateException("no capacity in us-east-1b");
		assertThatThrownBy(() -> this.operations.observe("launch", Tags.of("provisioner", "error-tag"), () -> {
			throw failure;
		})).isSameAs(failure);
		onlySpanOf("error-tag");
		assertThat(this.finished.spans).filteredOn((span) -> "error-tag".equals(span.tag("provisioner")))
			.singleElement()
			.satisfies((span) -> {
				assertThat(span.tag("error")).isEqualTo("no capacity in us-east-1b");
				assertThat(span.error()).isSameAs(failure);
			});
	}

	@Override
	protected List<RecordedSpan> finishedSpans() {
		return this.finished.spans.stream().map(BraveOperationTracingIntegrationTests::record).toList();
	}

	private static RecordedSpan record(MutableSpan span) {
		Map<String, String> tags = new TreeMap<>(span.tags());
		// The bridge marks a failed span with an "error" tag holding the message, beside
		// the exception itself; Brave keeps one exception per span, the last one given.
		String errorTag = tags.remove("error");
		Throwable error = span.error();
		List<String> exceptions = new ArrayList<>();
		if (error != null) {
			exceptions.add(error.getClass().getName() + ": " + error.getMessage());
		}
		if (errorTag != null && (error == null || !errorTag.equals(error.getMessage()))) {
			exceptions.add("error tag: " + errorTag);
		}
		return new RecordedSpan(span.name(), span.traceId(), span.id(), span.parentId(), tags,
				error != null || errorTag != null, exceptions);
	}

	/** Keeps every finished span in memory. */
	static final class FinishedSpans extends SpanHandler {

		private final Queue<MutableSpan> spans = new ConcurrentLinkedQueue<>();

		@Override
		public boolean end(TraceContext context, MutableSpan span, Cause cause) {
			if (cause == Cause.FINISHED) {
				this.spans.add(span);
			}
			return true;
		}

	}

	/** A span handler a Boot application picks up as it would a Zipkin one. */
	@TestConfiguration(proxyBeanMethods = false)
	static class InMemoryExport {

		@Bean
		FinishedSpans finishedSpans() {
			return new FinishedSpans();
		}

	}

}
