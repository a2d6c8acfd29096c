package dev.controllerobservability.internal.rules;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.controllerobservability.operations.OperationDescriptor;
import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.RecordingRule;

/**
 * The built-in rules of one operation: recording rules for the rates they use, and the
 * error-ratio, latency and stuck-in-flight alerts that are switched on. For
 * {@code launch} labelled by {@code provisioner} the error-ratio alert reads
 *
 * <pre>
 * provisioner_result:karpenter_cloudprovider_launch_duration_seconds_count:rate5m{result="error"}
 *   / ignoring (result) sum by (provisioner) (provisioner_result:karpenter_cloudprovider_launch_duration_seconds_count:rate5m{result!="cancelled"})
 *   &gt; 0.05
 * </pre> Cancelled calls count on neither side of the ratio: they ended without success
 * or failure.
 */
public final class OperationRules {

	private OperationRules() {
	}

	/**
	 * Adds an operation's rules.
	 * @param namespace the controller's namespace
	 * @param operation the operation
	 * @param settings the switched-on rules
	 * @param recordingRules where recording rules go
	 * @param alerts where alerts go
	 */
	public static void add(String namespace, OperationDescriptor operation, OperationRuleSettings settings,
			List<RecordingRule> recordingRules, List<AlertRule> alerts) {
		List<String> keys = operation.labelKeys();
		String level = keys.isEmpty() ? "controller" : String.join("_", keys);
		String by = keys.isEmpty() ? "" : " by (" + String.join(", ", keys) + ")";
		String window = settings.window();
		String family = operation.familyName();
		String calls = level + ":" + family + "_count:rate" + window;
		String callsByResult = (keys.isEmpty() ? "result" : level + "_result") + ":" + family + "_count:rate" + window;
		String buckets = (keys.isEmpty() ? "le" : level + "_le") + ":" + family + "_bucket:rate" + window;
		String alertPrefix = pascal(namespace) + pascal(operation.operation());
		String where = keys.isEmpty() ? "" : " for " + keys.get(0) + " {{ $labels." + keys.get(0) + " }}";
		List<String> withResult = new ArrayList<>(keys);
		withResult.add("result");
		List<String> withLe = new ArrayList<>(keys);
		withLe.add("le");
		if (settings.errorRatio() != null || settings.stuck() != null) {
			recordingRules
				.add(new RecordingRule(calls, "sum" + by + " (rate(" + family + "_count[" + window + "]))", null));
		}
		if (settings.errorRatio() != null) {
			recordingRules.add(new RecordingRule(callsByResult,
					"sum by (" + String.join(", ", withResult) + ") (rate(" + family + "_count[" + window + "]))",
					null));
			OperationRuleSettings.ErrorRatio rule = settings.errorRatio();
			// Cancelled calls neither failed nor succeeded: the ratio is of calls that
			// ended.
			String ended = "sum" + (keys.isEmpty() ? "" : by) + " (" + callsByResult + "{result!=\"cancelled\"})";
			alerts.add(new AlertRule(alertPrefix + "ErrorRatioHigh",
					callsByResult + "{result=\"error\"} / ignoring (result) " + ended + " > " + rule.threshold(),
					rule.forDuration(), rule.severity().toString(),
					"More than " + percent(rule.threshold()) + " of " + operation.operation() + " operations fail"
							+ where,
					"{{ $value | humanizePercentage }} of " + operation.operation() + " calls failed over the last "
							+ window + ".",
					null, null, null));
		}
		if (settings.latency() != null) {
			OperationRuleSettings.Latency rule = settings.latency();
			recordingRules.add(new RecordingRule(buckets,
					"sum by (" + String.join(", ", withLe) + ") (rate(" + family + "_bucket[" + window + "]))", null));
			alerts.add(new AlertRule(alertPrefix + "LatencyHigh",
					"histogram_quantile(" + rule.quantile() + ", " + buckets + ") > " + rule.thresholdSeconds(),
					rule.forDuration(), rule.severity().toString(),
					"p" + quantileLabel(rule.quantile()) + " latency of " + operation.operation() + " is above "
							+ rule.thresholdSeconds() + "s" + where,
					"The " + quantileLabel(rule.quantile()) + "th percentile of " + operation.operation()
							+ " durations is {{ $value | humanizeDuration }}.",
					null, null, null));
		}
		if (settings.stuck() != null) {
			OperationRuleSettings.Stuck rule = settings.stuck();
			alerts
				.add(new AlertRule(alertPrefix + "StuckInFlight",
						"sum" + by + " (" + operation.inFlightFamilyName() + ") > 0 and on (" + String.join(", ", keys)
								+ ") " + calls + " == 0",
						rule.forDuration(), rule.severity().toString(),
						operation.operation() + " operations are in flight but none completes" + where,
						"{{ $value }} " + operation.operation()
								+ " calls have been in flight without any completing for " + rule.forDuration() + ".",
						null, null, null));
		}
	}

	private static String percent(double ratio) {
		return BigDecimal.valueOf(ratio).movePointRight(2).stripTrailingZeros().toPlainString() + "%";
	}

	private static String quantileLabel(double quantile) {
		return BigDecimal.valueOf(quantile).movePointRight(2).stripTrailingZeros().toPlainString();
	}

	static String pascal(String snake) {
		StringBuilder result = new StringBuilder();
		for (String part : snake.split("_")) {
			if (!part.isEmpty()) {
				result.append(part.substring(0, 1).toUpperCase(Locale.ROOT)).append(part.substring(1));
			}
		}
		return result.toString();
	}

}
