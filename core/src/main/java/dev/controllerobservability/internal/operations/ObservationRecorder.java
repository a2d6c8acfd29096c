package dev.controllerobservability.internal.operations;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.operations.OperationDescriptor;

/**
 * Records operations through the Micrometer Observation API, so that metrics and tracing
 * both see them. A failure of the observation machinery is recorded and never reaches the
 * caller, whose work runs as if unobserved.
 */
public final class ObservationRecorder {

	private final ObservationRegistry registry;

	private final RecordingFailures failures;

	/**
	 * Creates a recorder.
	 * @param registry the registry the observations go through
	 * @param failures where recording failures go
	 */
	public ObservationRecorder(ObservationRegistry registry, RecordingFailures failures) {
		this.registry = registry;
		this.failures = failures;
	}

	/**
	 * Times work with already resolved labels.
	 * @param <T> the result type
	 * @param <E> the checked exception type
	 * @param descriptor the operation
	 * @param labels its label values
	 * @param work the work to time
	 * @return what {@code work} returned
	 * @throws E what {@code work} threw
	 */
	public <T, E extends Throwable> T observe(OperationDescriptor descriptor, Tags labels,
			Observation.CheckedCallable<T, E> work) throws E {
		return observe(start(descriptor, labels), work);
	}

	/**
	 * Times work within an observation that has been started, or
	 * {@link Observation#NOOP}.
	 * @param <T> the result type
	 * @param <E> the checked exception type
	 * @param observation the observation
	 * @param work the work to time
	 * @return what {@code work} returned
	 * @throws E what {@code work} threw
	 */
	public <T, E extends Throwable> T observe(Observation observation, Observation.CheckedCallable<T, E> work)
			throws E {
		Observation.Scope scope = openScope(observation);
		try {
			return work.call();
		}
		catch (Throwable ex) {
			signalError(observation, ex);
			throw ex;
		}
		finally {
			stop(observation, scope);
		}
	}

	/**
	 * Starts an operation's observation.
	 * @param descriptor the operation
	 * @param labels its label values
	 * @return the started observation, or {@link Observation#NOOP} when none could be
	 * created
	 */
	public Observation start(OperationDescriptor descriptor, Tags labels) {
		Observation observation;
		try {
			OperationContext context = new OperationContext(descriptor, labels);
			observation = Observation.createNotStarted(descriptor.baseName(), () -> context, this.registry)
				.contextualName(descriptor.operation());
			for (Tag label : labels) {
				observation.lowCardinalityKeyValue(label.getKey(), label.getValue());
			}
		}
		catch (Throwable ex) {
			this.failures.recordUnlessFatal("start of operation " + descriptor.operation(), ex);
			return Observation.NOOP;
		}
		try {
			observation.start();
		}
		catch (Throwable ex) {
			// Handlers ahead of the failing one have started: stopping later keeps their
			// state (such as the in-flight gauge) balanced.
			this.failures.recordUnlessFatal("start of operation " + descriptor.operation(), ex);
		}
		return observation;
	}

	private Observation.@Nullable Scope openScope(Observation observation) {
		try {
			return observation.openScope();
		}
		catch (Throwable ex) {
			this.failures.recordUnlessFatal("scope of an operation", ex);
			return null;
		}
	}

	private void signalError(Observation observation, Throwable error) {
		try {
			observation.error(error);
		}
		catch (Throwable ex) {
			this.failures.recordUnlessFatal("error of an operation", ex);
		}
	}

	private void stop(Observation observation, Observation.@Nullable Scope scope) {
		try {
			if (scope != null) {
				scope.close();
			}
		}
		catch (Throwable ex) {
			this.failures.recordUnlessFatal("scope of an operation", ex);
		}
		try {
			if (observation.getContextView() instanceof OperationContext context) {
				// No "error" key value: tracing handlers turn one into an error on every
				// span.
				// The meters take it from the context.
				observation.lowCardinalityKeyValue(MetricConventions.RESULT_LABEL, context.getResult());
			}
			observation.stop();
		}
		catch (Throwable ex) {
			this.failures.recordUnlessFatal("stop of an operation", ex);
			if (observation.getContextView() instanceof OperationContext context) {
				context.stopIfPending();
			}
		}
	}

}
