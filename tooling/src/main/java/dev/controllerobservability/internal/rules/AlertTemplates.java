package dev.controllerobservability.internal.rules;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Just enough of Go's {@code text/template} syntax to check alert labels and annotations
 * at start-up, as {@code promtool check rules} parses them: every action is closed, not
 * empty, with closed strings and balanced parentheses; {@code if}, {@code range},
 * {@code with}, {@code define} and {@code block} meet their {@code end}; and every
 * variable is one Prometheus defines ({@code $labels}, {@code $value},
 * {@code $externalLabels}, {@code $externalURL}) or one declared before. Functions are
 * left to Prometheus, whose set grows between releases. Example:
 *
 * <pre>
 * AlertTemplates.syntaxProblem("{{ $labels.provisioner }} fails"); // null
 * AlertTemplates.syntaxProblem("{{ $labels.x ");                    // "the action starting at position 0 is not closed ..."
 * </pre>
 */
public final class AlertTemplates {

	private static final Set<String> PROMETHEUS_VARIABLES = Set.of("$", "$labels", "$value", "$externalLabels",
			"$externalURL");

	private static final Set<String> BLOCKS = Set.of("if", "range", "with", "define", "block");

	private static final Pattern VARIABLE = Pattern.compile("\\$[A-Za-z0-9_]*");

	private static final Pattern DECLARATION = Pattern
		.compile("(\\$[A-Za-z0-9_]*)\\s*(?:,\\s*(\\$[A-Za-z0-9_]*)\\s*)?:?=");

	private static final Pattern FIRST_WORD = Pattern.compile("^\\s*([a-z]+)\\b");

	private AlertTemplates() {
	}

	/**
	 * The first problem Prometheus's template parser would report in a label or
	 * annotation value.
	 * @param text the value
	 * @return the problem, or {@code null} when none is found
	 */
	public static String syntaxProblem(String text) {
		if (text == null) {
			return null;
		}
		Set<String> variables = new HashSet<>(PROMETHEUS_VARIABLES);
		Deque<String> blocks = new ArrayDeque<>();
		int from = 0;
		while (true) {
			int open = text.indexOf("{{", from);
			if (open < 0) {
				break;
			}
			int close = closingDelimiter(text, open + 2);
			if (close == -2) {
				return "a string in the action starting at position " + open + " is not closed";
			}
			if (close < 0) {
				return "the action starting at position " + open + " is not closed with '}}'";
			}
			String action = trimMarkers(text.substring(open + 2, close));
			String problem = actionProblem(action, open, variables, blocks);
			if (problem != null) {
				return problem;
			}
			from = close + 2;
		}
		return blocks.isEmpty() ? null : "'{{" + blocks.peek() + "}}' has no '{{end}}'";
	}

	private static String actionProblem(String action, int position, Set<String> variables, Deque<String> blocks) {
		if (action.startsWith("/*")) {
			return action.endsWith("*/") ? null : "the comment at position " + position + " is not closed with '*/'";
		}
		if (action.isBlank()) {
			return "the action at position " + position + " is empty";
		}
		String code = withoutStrings(action);
		int depth = 0;
		for (char c : code.toCharArray()) {
			depth += (c == '(') ? 1 : (c == ')') ? -1 : 0;
			if (depth < 0) {
				return "a ')' in the action at position " + position + " closes nothing";
			}
		}
		if (depth != 0) {
			return "a '(' in the action at position " + position + " is not closed";
		}
		Matcher declaration = DECLARATION.matcher(code);
		while (declaration.find()) {
			variables.add(declaration.group(1));
			if (declaration.group(2) != null) {
				variables.add(declaration.group(2));
			}
		}
		Matcher variable = VARIABLE.matcher(code);
		while (variable.find()) {
			if (!variables.contains(variable.group())) {
				return "the variable " + variable.group() + " at position " + position
						+ " is not defined (Prometheus defines $labels, $value, $externalLabels and $externalURL)";
			}
		}
		Matcher word = FIRST_WORD.matcher(code);
		String keyword = word.find() ? word.group(1) : "";
		if (BLOCKS.contains(keyword)) {
			blocks.push(keyword);
		}
		else if (keyword.equals("end") && blocks.poll() == null) {
			return "the '{{end}}' at position " + position + " ends nothing";
		}
		return null;
	}

	/**
	 * Index of the {@code }}} closing an action, -2 for an unclosed string, -1 if none.
	 */
	private static int closingDelimiter(String text, int start) {
		for (int i = start; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '"' || c == '`' || c == '\'') {
				int end = closingQuote(text, i);
				if (end < 0) {
					return -2;
				}
				i = end;
			}
			else if (text.startsWith("}}", i)) {
				return i;
			}
		}
		return -1;
	}

	private static int closingQuote(String text, int start) {
		char quote = text.charAt(start);
		for (int i = start + 1; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '\\' && quote != '`') {
				i++;
			}
			else if (c == quote) {
				return i;
			}
			else if (c == '\n' && quote != '`') {
				return -1;
			}
		}
		return -1;
	}

	private static String trimMarkers(String action) {
		String trimmed = action;
		if (trimmed.startsWith("- ")) {
			trimmed = trimmed.substring(2);
		}
		if (trimmed.endsWith(" -")) {
			trimmed = trimmed.substring(0, trimmed.length() - 2);
		}
		return trimmed.trim();
	}

	private static String withoutStrings(String action) {
		StringBuilder result = new StringBuilder();
		for (int i = 0; i < action.length(); i++) {
			char c = action.charAt(i);
			if (c == '"' || c == '`' || c == '\'') {
				i = closingQuote(action, i);
				result.append("\"\"");
			}
			else {
				result.append(c);
			}
		}
		return result.toString();
	}

}
