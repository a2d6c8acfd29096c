package dev.controllerobservability.internal.test;

import java.util.Map;

import io.javaoperatorsdk.operator.api.monitoring.Metrics.ControllerExecution;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import org.jspecify.annotations.Nullable;

/**
 * A Java Operator SDK reconcile, as the SDK hands it to its {@code Metrics} to time, for
 * tests of the controller-runtime metrics: controller {@code widget}, resource
 * {@code default/a}. Example:
 *
 * <pre>{@code
 * metrics.timeControllerExecution(ControllerExecutions.execution("done", null)); // "done"
 * }</pre>
 */
public final class ControllerExecutions {

	private ControllerExecutions() {
	}

	/**
	 * A reconcile of the controller {@code widget} that returns or throws.
	 * @param result what the reconcile returns
	 * @param error what it throws instead (an {@link Error} or an {@link Exception}), or
	 * {@code null} to return {@code result}
	 * @return the execution
	 */
	public static ControllerExecution<@Nullable String> execution(@Nullable String result, @Nullable Throwable error) {
		return new ControllerExecution<>() {

			@Override
			public String name() {
				return "reconcile";
			}

			@Override
			public String controllerName() {
				return "widget";
			}

			@Override
			public String successTypeName(@Nullable String value) {
				return "resource";
			}

			@Override
			public ResourceID resourceID() {
				return new ResourceID("a", "default");
			}

			@Override
			public Map<String, Object> metadata() {
				return Map.of();
			}

			@Override
			public @Nullable String execute() throws Exception {
				if (error instanceof Error fatal) {
					throw fatal;
				}
				if (error != null) {
					throw (Exception) error;
				}
				return result;
			}

		};
	}

}
