package dev.controllerobservability.exposition;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import dev.controllerobservability.exposition.ExpositionLexer.Token;

/**
 * Reads the Prometheus text format (version 0.0.4) entry by entry as Prometheus 2.42's
 * {@code model/textparse/promparse.go} does, and refuses what it refuses with its reason
 * and the line. What promparse accepts, this reads too: blanks between any tokens, a
 * trailing comma in a label set, a timestamp after the value, a last line without a line
 * feed, a line feed inside a label value, and a backslash before any other character,
 * kept as written.
 */
final class ExpositionParser {

	private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");

	private final ExpositionLexer lexer;

	private final FamilyGrouping families = new FamilyGrouping();

	ExpositionParser(String text) {
		this.lexer = new ExpositionLexer(text);
	}

	Exposition parse() {
		while (true) {
			Token token = this.lexer.nextToken();
			switch (token) {
				case EOF -> {
					return this.families.exposition();
				}
				case LINEBREAK -> {
					// Blank lines are allowed.
				}
				case HELP, TYPE -> metadata(token);
				case COMMENT -> expect(Token.LINEBREAK, "linebreak expected after comment");
				case MNAME -> sample();
				default -> throw refused("\"" + token + "\" is not a valid start token");
			}
		}
	}

	private void metadata(Token kind) {
		expect(Token.MNAME, "expected metric name after " + kind);
		String name = this.lexer.token();
		if (this.lexer.nextToken() != Token.TEXT) {
			throw refused("expected text in " + kind);
		}
		String token = this.lexer.token();
		// The text token starts with the blank after the name.
		String text = (token.length() > 1) ? token.substring(1) : "";
		if (kind == Token.TYPE && !TYPES.contains(text)) {
			throw refused("invalid metric type \"" + text + "\"");
		}
		expect(Token.LINEBREAK, "linebreak expected after metadata");
		if (kind == Token.TYPE) {
			this.families.type(name, text);
		}
		else {
			this.families.help(name, unescape(text, false));
		}
	}

	private void sample() {
		String name = this.lexer.token();
		Map<String, String> labels = new LinkedHashMap<>();
		Token token = this.lexer.nextToken();
		if (token == Token.BOPEN) {
			labels(labels);
			token = this.lexer.nextToken();
		}
		if (token != Token.VALUE) {
			throw refused("expected value after metric, got \"" + token + "\"");
		}
		double value;
		try {
			value = TextFormatFloat.parse(this.lexer.token());
		}
		catch (IllegalArgumentException ex) {
			throw refused(ex.getMessage());
		}
		Long timestamp = null;
		token = this.lexer.nextToken();
		if (token == Token.TIMESTAMP) {
			timestamp = timestamp(this.lexer.token());
			expect(Token.LINEBREAK, "expected next entry after timestamp");
		}
		else if (token != Token.LINEBREAK) {
			throw refused("expected timestamp or new record, got \"" + token + "\"");
		}
		this.families.sample(new ExposedSample(name, labels, value, timestamp));
	}

	private void labels(Map<String, String> labels) {
		Token token = this.lexer.nextToken();
		while (token != Token.BCLOSE) {
			if (token != Token.LNAME) {
				throw refused("expected label name, got \"" + token + "\"");
			}
			String name = this.lexer.token();
			expect(Token.EQUAL, "expected equal");
			expect(Token.LVALUE, "expected label value");
			String quoted = this.lexer.token();
			labels.put(name, unescape(quoted.substring(1, quoted.length() - 1), true));
			// A trailing comma is allowed, and so is no comma between labels.
			token = this.lexer.nextToken();
			if (token == Token.COMMA) {
				token = this.lexer.nextToken();
			}
		}
	}

	private Long timestamp(String digits) {
		try {
			return Long.parseLong(digits);
		}
		catch (NumberFormatException ex) {
			throw refused("strconv.ParseInt: parsing \"" + digits + "\": value out of range");
		}
	}

	private void expect(Token expected, String reason) {
		Token token = this.lexer.nextToken();
		if (token != expected) {
			throw refused(reason + ", got \"" + token + "\"");
		}
	}

	/**
	 * Reads the escapes Prometheus reads, left to right: {@code \\} and {@code \n}
	 * everywhere, {@code \"} in label values only. A backslash before anything else
	 * stays.
	 */
	private static String unescape(String escaped, boolean labelValue) {
		if (escaped.indexOf('\\') < 0) {
			return escaped;
		}
		StringBuilder result = new StringBuilder(escaped.length());
		for (int i = 0; i < escaped.length(); i++) {
			char c = escaped.charAt(i);
			char next = (i + 1 < escaped.length()) ? escaped.charAt(i + 1) : 0;
			if (c == '\\' && (next == '\\' || next == 'n' || (labelValue && next == '"'))) {
				result.append((next == 'n') ? '\n' : next);
				i++;
			}
			else {
				result.append(c);
			}
		}
		return result.toString();
	}

	private IllegalArgumentException refused(String reason) {
		String input = this.lexer.input();
		int at = Math.min(this.lexer.tokenStart(), input.length() - 1);
		int lineStart = input.lastIndexOf('\n', at - 1) + 1;
		int lineEnd = input.indexOf('\n', at);
		int line = 1 + (int) input.substring(0, lineStart).chars().filter((c) -> c == '\n').count();
		return new IllegalArgumentException("Line " + line + " is not of the Prometheus text format: " + reason
				+ " at column " + (at - lineStart + 1) + ", as Prometheus 2.42 refuses it too; write the line as"
				+ " the text format 0.0.4 has it: " + input.substring(lineStart, lineEnd));
	}

}
