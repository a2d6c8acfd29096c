package dev.controllerobservability.internal.rules;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Just enough PromQL to check rules at start-up: balanced brackets and quotes, valid
 * range durations, and the metric names an expression reads. Full parsing is left to
 * Prometheus and {@code promtool check rules}.
 */
public final class PromQl {

	private static final Pattern DURATION = Pattern.compile("(\\d+(ms|s|m|h|d|w|y))+");

	private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

	private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
			"and", "or", "unless", "bool", "offset", "inf", "nan", "atan2");

	private PromQl() {
	}

	/**
	 * Whether a text is a Prometheus duration such as {@code 5m} or {@code 1h30m}.
	 * @param text the candidate
	 * @return whether it is a duration
	 */
	public static boolean isDuration(String text) {
		return text != null && DURATION.matcher(text).matches();
	}

	/**
	 * The first syntax problem of an expression.
	 * @param expr the expression
	 * @return the problem, or {@code null} when none is found
	 */
	public static String syntaxProblem(String expr) {
		if (expr == null || expr.isBlank()) {
			return "the expression is empty";
		}
		Deque<Character> open = new ArrayDeque<>();
		for (int i = 0; i < expr.length(); i++) {
			char c = expr.charAt(i);
			if (c == '"' || c == '\'' || c == '`') {
				int end = closingQuote(expr, i);
				if (end < 0) {
					return "the string starting at position " + i + " is not closed";
				}
				i = end;
			}
			else if (c == '(' || c == '[' || c == '{') {
				open.push(c);
				if (c == '[') {
					int end = expr.indexOf(']', i);
					String range = (end > 0) ? expr.substring(i + 1, end).trim() : "";
					String[] parts = range.split(":", -1);
					if (end < 0 || !isDuration(parts[0].trim())
							|| (parts.length == 2 && !parts[1].isBlank() && !isDuration(parts[1].trim()))
							|| parts.length > 2) {
						return "'[" + range + "]' at position " + i + " is not a range such as [5m]";
					}
				}
			}
			else if (c == ')' || c == ']' || c == '}') {
				char expected = (c == ')') ? '(' : (c == ']') ? '[' : '{';
				if (open.isEmpty() || open.pop() != expected) {
					return "'" + c + "' at position " + i + " closes nothing";
				}
			}
		}
		return open.isEmpty() ? null : "'" + open.peek() + "' is not closed";
	}

	/**
	 * The metric names an expression reads (function names, keywords, label names and
	 * strings left out).
	 * @param expr a syntactically sound expression
	 * @return the metric names, in order of appearance
	 */
	public static Set<String> metricNames(String expr) {
		String stripped = stripStrings(expr);
		stripped = stripped.replaceAll("\\{[^}]*}", " ").replaceAll("\\[[^]]*]", " ");
		stripped = stripped.replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
		stripped = stripped.replaceAll("\\boffset\\s+\\S+", " ");
		Set<String> names = new LinkedHashSet<>();
		Matcher matcher = IDENTIFIER.matcher(stripped);
		while (matcher.find()) {
			String name = matcher.group();
			int next = matcher.end();
			while (next < stripped.length() && Character.isWhitespace(stripped.charAt(next))) {
				next++;
			}
			boolean function = next < stripped.length() && stripped.charAt(next) == '(';
			boolean number = matcher.start() > 0 && (Character.isDigit(stripped.charAt(matcher.start() - 1))
					|| stripped.charAt(matcher.start() - 1) == '.');
			if (!function && !number && !KEYWORDS.contains(name.toLowerCase(Locale.ROOT))) {
				names.add(name);
			}
		}
		return names;
	}

	private static String stripStrings(String expr) {
		StringBuilder result = new StringBuilder();
		for (int i = 0; i < expr.length(); i++) {
			char c = expr.charAt(i);
			if (c == '"' || c == '\'' || c == '`') {
				int end = closingQuote(expr, i);
				i = (end < 0) ? expr.length() : end;
				result.append(' ');
			}
			else {
				result.append(c);
			}
		}
		return result.toString();
	}

	private static int closingQuote(String expr, int start) {
		char quote = expr.charAt(start);
		for (int i = start + 1; i < expr.length(); i++) {
			if (expr.charAt(i) == '\\' && quote != '`') {
				i++;
			}
			else if (expr.charAt(i) == quote) {
				return i;
			}
		}
		return -1;
	}

}
