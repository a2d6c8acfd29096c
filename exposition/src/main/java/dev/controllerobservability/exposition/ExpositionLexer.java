package dev.controllerobservability.exposition;

/**
 * The tokens of the Prometheus text format, cut exactly as Prometheus 2.42's
 * {@code model/textparse/promlex.l} cuts them: the same states, character classes and
 * longest matches, including its handling of NUL (skipped inside label values, HELP text
 * and comments; the end of the input at the start of a line).
 * <p>
 * Characters from U+0080 up fall in the classes where the lexer's UTF-8 bytes from 0x80
 * up fall, so a Java string is cut as its UTF-8 encoding is.
 */
final class ExpositionLexer {

	/** The token kinds; {@link #toString()} is Prometheus's name for each. */
	enum Token {

		INVALID, EOF, LINEBREAK, WHITESPACE, HELP, TYPE, TEXT, COMMENT, MNAME, BOPEN, BCLOSE, LNAME, LVALUE, COMMA,
		EQUAL, TIMESTAMP, VALUE

	}

	private enum State {

		INIT, COMMENT, META1, META2, LABELS, LVALUE, VALUE, TIMESTAMP

	}

	private static final char END = 0;

	private final String input;

	private int index;

	private int start;

	private State state = State.INIT;

	/**
	 * Creates a lexer that reads the text with a line feed after it, as Prometheus's
	 * parser appends one.
	 * @param text the scrape
	 */
	ExpositionLexer(String text) {
		this.input = text + "\n";
	}

	/**
	 * The text of the token last returned.
	 * @return its characters
	 */
	String token() {
		return this.input.substring(this.start, this.index);
	}

	/**
	 * Where the token last returned starts.
	 * @return its offset in the text
	 */
	int tokenStart() {
		return this.start;
	}

	String input() {
		return this.input;
	}

	/**
	 * The next token other than whitespace, as the parser asks for it.
	 * @return the token
	 */
	Token nextToken() {
		Token token;
		do {
			token = lex();
		}
		while (token == Token.WHITESPACE);
		return token;
	}

	private Token lex() {
		if (this.index >= this.input.length()) {
			return Token.EOF;
		}
		char c = this.input.charAt(this.index);
		this.start = this.index;
		if (isBlank(c)) {
			return whitespace();
		}
		return switch (this.state) {
			case INIT -> init(c);
			case COMMENT -> comment(c);
			case META1 -> name(c, State.META2);
			case META2 -> text(c);
			case LABELS -> labels(c);
			case LVALUE -> labelValue(c);
			case VALUE -> value(c);
			case TIMESTAMP -> timestamp(c);
		};
	}

	private Token init(char c) {
		if (c == '#') {
			char after = next();
			if (!isBlank(after)) {
				return consumeComment();
			}
			while (isBlank(after)) {
				after = next();
			}
			// Prometheus re-enters the lexer in the comment state without starting a
			// new token.
			this.state = State.COMMENT;
			return comment(after);
		}
		if (isNameStart(c)) {
			return name(c, State.VALUE);
		}
		if (c == '\n') {
			next();
			return Token.LINEBREAK;
		}
		if (c == 0) {
			next();
			return Token.EOF;
		}
		return Token.INVALID;
	}

	private Token comment(char c) {
		String keyword = (c == 'H') ? "HELP" : (c == 'T') ? "TYPE" : null;
		if (keyword == null) {
			return consumeComment();
		}
		char current = c;
		for (int i = 1; i < keyword.length(); i++) {
			current = next();
			if (current != keyword.charAt(i)) {
				return consumeComment();
			}
		}
		current = next();
		if (!isBlank(current)) {
			return consumeComment();
		}
		while (isBlank(current)) {
			current = next();
		}
		this.state = State.META1;
		return (c == 'H') ? Token.HELP : Token.TYPE;
	}

	private Token consumeComment() {
		for (char c = current();; c = next()) {
			if (c == 0) {
				return Token.EOF;
			}
			if (c == '\n') {
				this.state = State.INIT;
				return Token.COMMENT;
			}
		}
	}

	private Token name(char c, State after) {
		if (!isNameStart(c)) {
			return Token.INVALID;
		}
		char current = next();
		while (isNameStart(current) || isDigit(current)) {
			current = next();
		}
		this.state = after;
		return Token.MNAME;
	}

	private Token text(char c) {
		// The rest of the line is one token; whitespace alone before the line feed is
		// whitespace, and an empty rest is empty text.
		if (c != 0 && c != '\n') {
			char current = next();
			while (current != END && current != '\n') {
				current = next();
			}
		}
		this.state = State.INIT;
		return Token.TEXT;
	}

	private Token labels(char c) {
		switch (c) {
			case ',' -> {
				next();
				return Token.COMMA;
			}
			case '=' -> {
				next();
				this.state = State.LVALUE;
				return Token.EQUAL;
			}
			case '}' -> {
				next();
				this.state = State.VALUE;
				return Token.BCLOSE;
			}
			default -> {
				if (!isLabelNameStart(c)) {
					return Token.INVALID;
				}
				char current = next();
				while (isLabelNameStart(current) || isDigit(current)) {
					current = next();
				}
				return Token.LNAME;
			}
		}
	}

	private Token labelValue(char c) {
		if (c != '"') {
			return Token.INVALID;
		}
		char current = next();
		while (current != '"') {
			if (current == END) {
				return Token.INVALID;
			}
			if (current == '\\') {
				// An escape is a backslash and any character but a line feed; the
				// parser, not the lexer, decides what it means.
				current = next();
				if (current == END || current == '\n') {
					return Token.INVALID;
				}
			}
			current = next();
		}
		next();
		this.state = State.LABELS;
		return Token.LVALUE;
	}

	private Token value(char c) {
		if (c == '{') {
			next();
			this.state = State.LABELS;
			return Token.BOPEN;
		}
		if (!isValueChar(c)) {
			return Token.INVALID;
		}
		char current = next();
		while (isValueChar(current)) {
			current = next();
		}
		this.state = State.TIMESTAMP;
		return Token.VALUE;
	}

	private Token timestamp(char c) {
		if (c == '\n') {
			next();
			this.state = State.INIT;
			return Token.LINEBREAK;
		}
		if (!isDigit(c)) {
			return Token.INVALID;
		}
		char current = next();
		while (isDigit(current)) {
			current = next();
		}
		return Token.TIMESTAMP;
	}

	private Token whitespace() {
		char current = next();
		while (isBlank(current)) {
			current = next();
		}
		if (this.state == State.META2 && current != END && current != '\n') {
			// HELP and TYPE text starts at the first blank after the name.
			return text(current);
		}
		return Token.WHITESPACE;
	}

	private char current() {
		return (this.index < this.input.length()) ? this.input.charAt(this.index) : END;
	}

	private char next() {
		this.index++;
		if (this.index >= this.input.length()) {
			return END;
		}
		// As Prometheus does: NUL inside label values, HELP text and comments is
		// consumed here, so the states there never see it.
		while (this.input.charAt(this.index) == 0
				&& (this.state == State.LVALUE || this.state == State.META2 || this.state == State.COMMENT)) {
			this.index++;
		}
		return this.input.charAt(this.index);
	}

	private static boolean isBlank(char c) {
		return c == ' ' || c == '\t';
	}

	private static boolean isDigit(char c) {
		return c >= '0' && c <= '9';
	}

	private static boolean isLabelNameStart(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
	}

	private static boolean isNameStart(char c) {
		return isLabelNameStart(c) || c == ':';
	}

	private static boolean isValueChar(char c) {
		return c != 0 && c != '\t' && c != '\n' && c != ' ' && c != '{';
	}

}
