package dev.controllerobservability.exposition;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A sample value read as Prometheus 2.42 reads it: Go's {@code strconv.ParseFloat} after
 * refusing {@code p}, {@code P} and {@code _} (so no hexadecimal floats and no digit
 * separators). Decimal and exponent forms, {@code Inf} and {@code Infinity} with an
 * optional sign and {@code NaN} without one are accepted in any case; a value too large
 * for a {@code double} is refused, not read as an infinity.
 */
final class TextFormatFloat {

	private static final Pattern DECIMAL = Pattern.compile("[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?");

	private TextFormatFloat() {
	}

	/**
	 * Reads a value.
	 * @param text the value as exposed, such as {@code 1.5e-3} or {@code +Inf}
	 * @return the value
	 * @throws IllegalArgumentException with Prometheus's reason when it refuses the value
	 */
	static double parse(String text) {
		if (text.indexOf('p') >= 0 || text.indexOf('P') >= 0 || text.indexOf('_') >= 0) {
			throw new IllegalArgumentException("unsupported character in float");
		}
		String unsigned = (text.startsWith("+") || text.startsWith("-")) ? text.substring(1) : text;
		String special = unsigned.toLowerCase(Locale.ROOT);
		if (special.equals("inf") || special.equals("infinity")) {
			return text.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
		}
		if (text.toLowerCase(Locale.ROOT).equals("nan")) {
			return Double.NaN;
		}
		if (!DECIMAL.matcher(text).matches()) {
			throw new IllegalArgumentException("strconv.ParseFloat: parsing \"" + text + "\": invalid syntax");
		}
		double value = Double.parseDouble(text);
		if (Double.isInfinite(value)) {
			throw new IllegalArgumentException("strconv.ParseFloat: parsing \"" + text + "\": value out of range");
		}
		return value;
	}

}
