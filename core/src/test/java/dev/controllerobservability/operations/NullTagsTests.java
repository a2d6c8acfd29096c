package dev.controllerobservability.operations;

import java.util.Arrays;
import java.util.Map;

import io.micrometer.core.instrument.Tag;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.controllerobservability.ControllerObservability;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every method of {@link ControllerOperations} that takes tags, given {@code null} tags
 * or tags holding a {@code null}, on the direct path and the observation path: the work
 * runs once; {@code null} tags record every label as {@code none}; a {@code null} tag is
 * a recording failure, counted, and the call runs unrecorded.
 */
class NullTagsTests {

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private int runs;

	@ParameterizedTest(name = "direct={0}")
	@ValueSource(booleans = { true, false })
	void recordsNullTagsAsNoneInEveryMethod(boolean direct) throws Exception {
		ControllerObservability observability = observability(direct);
		ControllerOperations operations = observability.operations();
		assertThat(operations.observe("bind", null, this::work)).isEqualTo("done");
		operations.observe("bind", null, (Runnable) this::work);
		assertThat(operations.<String, Exception>observeChecked("bind", null, this::work)).isEqualTo("done");
		operations.runChecked("bind", null, this::work);
		OperationHandle handle = operations.bind("bind", null);
		assertThat(handle.labels()).containsExactly(Tag.of("provisioner", "none"));
		assertThat(handle.observe(this::work)).isEqualTo("done");
		assertThat(this.runs).isEqualTo(5);
		PrometheusScrape scrape = PrometheusScrape.parse(this.registry.scrape());
		assertThat(scrape.value("karpenter_bind_duration_seconds_count",
				Map.of("provisioner", "none", "result", "success", "error", "none")))
			.isEqualTo(5);
		assertThat(observability.failures().count()).isZero();
	}

	@ParameterizedTest(name = "direct={0}")
	@ValueSource(booleans = { true, false })
	void runsTheWorkOfTagsHoldingANullUnrecordedAndCountsIt(boolean direct) throws Exception {
		ControllerObservability observability = observability(direct);
		ControllerOperations operations = observability.operations();
		Iterable<Tag> tags = Arrays.asList(Tag.of("provisioner", "gpu"), null);
		assertThat(operations.observe("bind", tags, this::work)).isEqualTo("done");
		operations.observe("bind", tags, (Runnable) this::work);
		assertThat(operations.<String, Exception>observeChecked("bind", tags, this::work)).isEqualTo("done");
		operations.runChecked("bind", tags, this::work);
		OperationHandle handle = operations.bind("bind", tags);
		assertThat(handle.isRecorded()).isFalse();
		assertThat(handle.observe(this::work)).isEqualTo("done");
		assertThat(this.runs).isEqualTo(5);
		assertThat(observability.failures().count()).isEqualTo(5);
		assertThat(PrometheusScrape.parse(this.registry.scrape()).samples("karpenter_bind_duration_seconds_count"))
			.isEmpty();
	}

	private ControllerObservability observability(boolean direct) {
		ControllerObservability.Builder builder = ControllerObservability.builder(this.registry)
			.namespace("karpenter")
			.operationTags("provisioner");
		if (!direct) {
			builder.observationRegistry(ObservationRegistry.create());
		}
		return builder.build();
	}

	private String work() {
		this.runs++;
		return "done";
	}

}
