package dev.controllerobservability.internal.operations;

import io.micrometer.core.instrument.Tags;
import io.micrometer.observation.Observation;

import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.operations.OperationDescriptor;

/**
 * The {@link Observation.Context} of one operation call: which operation, with which
 * label values, and the state the meter handler keeps between start and stop.
 */
public final class OperationContext extends Observation.Context {

	private final OperationDescriptor descriptor;

	private final Tags labels;

	private long startNanos;

	private OperationSeries series;

	private OperationMeterObservationHandler startedBy;

	private boolean stopped;

	/**
	 * Creates the context of one call.
	 * @param descriptor the operation
	 * @param labels one tag per key of {@link OperationDescriptor#labelKeys()}
	 */
	public OperationContext(OperationDescriptor descriptor, Tags labels) {
		this.descriptor = descriptor;
		this.labels = labels;
	}

	/**
	 * The operation being timed.
	 * @return its descriptor
	 */
	public OperationDescriptor getDescriptor() {
		return this.descriptor;
	}

	/**
	 * Label values of this call, one per configured key, without {@code result} and
	 * {@code error}.
	 * @return the labels
	 */
	public Tags getLabels() {
		return this.labels;
	}

	/**
	 * {@code success}, or {@code error} once an error was signalled.
	 * @return the value of the {@code result} label
	 */
	public String getResult() {
		return (getError() != null) ? MetricConventions.ERROR : MetricConventions.SUCCESS;
	}

	/**
	 * Simple class name of the signalled error ({@code none} without one). Anonymous
	 * classes have no simple name and give their binary name instead.
	 * @return the value of the {@code error} label
	 */
	public String getErrorLabel() {
		Throwable error = getError();
		return (error != null) ? errorLabel(error) : MetricConventions.NONE;
	}

	/**
	 * The {@code error} label value of a failure: its exception's simple class name.
	 * @param error what the operation threw
	 * @return the label value
	 */
	static String errorLabel(Throwable error) {
		String simpleName = error.getClass().getSimpleName();
		return simpleName.isEmpty() ? error.getClass().getName() : simpleName;
	}

	long getStartNanos() {
		return this.startNanos;
	}

	void setStartNanos(long startNanos) {
		this.startNanos = startNanos;
	}

	OperationSeries getSeries() {
		return this.series;
	}

	void setSeries(OperationSeries series) {
		this.series = series;
	}

	void started(OperationMeterObservationHandler handler) {
		this.startedBy = handler;
	}

	/**
	 * Whether the meter handler took this call's start time.
	 * @return whether there is a duration to record at stop
	 */
	boolean isStarted() {
		return this.startedBy != null;
	}

	/**
	 * Marks the call as stopped.
	 * @return whether it was not stopped before
	 */
	boolean stop() {
		boolean first = !this.stopped;
		this.stopped = true;
		return first;
	}

	/**
	 * Stops the meter handler's recording if the observation's stop never reached it,
	 * because another handler failed first.
	 */
	public void stopIfPending() {
		if (this.startedBy != null && !this.stopped) {
			this.startedBy.onStop(this);
		}
	}

}
