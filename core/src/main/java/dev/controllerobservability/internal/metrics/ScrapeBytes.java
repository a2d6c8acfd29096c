package dev.controllerobservability.internal.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.jspecify.annotations.Nullable;

/**
 * Bytes of a scrape as they are rendered: passed on to a stream a buffer at a time, or
 * kept to be written later (a protobuf message, whose length comes first). Numbers and
 * strings are encoded in place, as the standard writers encode them, without objects.
 */
final class ScrapeBytes {

	private static final int STREAM_BUFFER = 1 << 16;

	private static final byte[] MIN_LONG = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);

	private static final byte[] POSITIVE_INFINITY = "+Inf".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] NEGATIVE_INFINITY = "-Inf".getBytes(StandardCharsets.US_ASCII);

	private final @Nullable OutputStream out;

	private byte[] buffer;

	private int size;

	private ScrapeBytes(@Nullable OutputStream out, int capacity) {
		this.out = out;
		this.buffer = new byte[capacity];
	}

	/** Bytes written on to a stream, a buffer at a time; {@link #flush()} at the end. */
	static ScrapeBytes to(OutputStream out) {
		return new ScrapeBytes(out, STREAM_BUFFER);
	}

	/** Bytes kept, growing as needed. */
	static ScrapeBytes kept(int capacity) {
		return new ScrapeBytes(null, Math.max(capacity, 16));
	}

	int size() {
		return this.size;
	}

	void reset() {
		this.size = 0;
	}

	void flush() throws IOException {
		if (this.out != null && this.size > 0) {
			this.out.write(this.buffer, 0, this.size);
			this.size = 0;
		}
	}

	private void room(int bytes) throws IOException {
		if (this.size + bytes <= this.buffer.length) {
			return;
		}
		if (this.out != null) {
			flush();
			if (bytes <= this.buffer.length) {
				return;
			}
		}
		this.buffer = Arrays.copyOf(this.buffer, Math.max(this.buffer.length * 2, this.size + bytes));
	}

	void write(int b) throws IOException {
		room(1);
		this.buffer[this.size++] = (byte) b;
	}

	void write(byte[] bytes) throws IOException {
		write(bytes, 0, bytes.length);
	}

	void write(byte[] bytes, int offset, int length) throws IOException {
		if (this.out != null && length > this.buffer.length) {
			flush();
			this.out.write(bytes, offset, length);
			return;
		}
		room(length);
		System.arraycopy(bytes, offset, this.buffer, this.size, length);
		this.size += length;
	}

	/** Writes the bytes kept here to other bytes. */
	void writeTo(ScrapeBytes other) throws IOException {
		other.write(this.buffer, 0, this.size);
	}

	/** A long in decimal, as {@code Long.toString} writes it. */
	void writeLong(long value) throws IOException {
		if (value == Long.MIN_VALUE) {
			write(MIN_LONG);
			return;
		}
		room(20);
		long rest = value;
		if (rest < 0) {
			this.buffer[this.size++] = '-';
			rest = -rest;
		}
		int digits = 1;
		for (long bound = 10; digits < 19 && rest >= bound; bound *= 10) {
			digits++;
		}
		int end = this.size + digits;
		for (int i = end - 1; i >= this.size; i--) {
			this.buffer[i] = (byte) ('0' + (rest % 10));
			rest /= 10;
		}
		this.size = end;
	}

	/** A double as the text formats write it: {@code Double.toString}, or ±Inf. */
	void writeDouble(double value) throws IOException {
		if (value == Double.POSITIVE_INFINITY) {
			write(POSITIVE_INFINITY);
		}
		else if (value == Double.NEGATIVE_INFINITY) {
			write(NEGATIVE_INFINITY);
		}
		else {
			writeUtf8(Double.toString(value), Escape.NONE);
		}
	}

	/** A double's text as the text formats write it. */
	static byte[] doubleText(double value) {
		if (value == Double.POSITIVE_INFINITY) {
			return POSITIVE_INFINITY.clone();
		}
		if (value == Double.NEGATIVE_INFINITY) {
			return NEGATIVE_INFINITY.clone();
		}
		return Double.toString(value).getBytes(StandardCharsets.US_ASCII);
	}

	/**
	 * A string in UTF-8, an unpaired surrogate as {@code ?} as Java's encoders write it,
	 * escaped for where it goes.
	 */
	void writeUtf8(String text, Escape escape) throws IOException {
		int length = text.length();
		// At most three bytes a char, and two for an escaped one.
		room(length * 3);
		byte[] bytes = this.buffer;
		int at = this.size;
		for (int i = 0; i < length; i++) {
			char c = text.charAt(i);
			if (c < 0x80) {
				if (escape.escapes(c)) {
					bytes[at++] = '\\';
					bytes[at++] = (byte) ((c == '\n') ? 'n' : c);
				}
				else {
					bytes[at++] = (byte) c;
				}
			}
			else if (c < 0x800) {
				bytes[at++] = (byte) (0xC0 | (c >> 6));
				bytes[at++] = (byte) (0x80 | (c & 0x3F));
			}
			else if (Character.isSurrogate(c)) {
				if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
					int codePoint = Character.toCodePoint(c, text.charAt(++i));
					bytes[at++] = (byte) (0xF0 | (codePoint >> 18));
					bytes[at++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
					bytes[at++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
					bytes[at++] = (byte) (0x80 | (codePoint & 0x3F));
				}
				else {
					bytes[at++] = '?';
				}
			}
			else {
				bytes[at++] = (byte) (0xE0 | (c >> 12));
				bytes[at++] = (byte) (0x80 | ((c >> 6) & 0x3F));
				bytes[at++] = (byte) (0x80 | (c & 0x3F));
			}
		}
		this.size = at;
	}

	/** The length of a string in UTF-8, as {@link #writeUtf8} writes it unescaped. */
	static int utf8Length(String text) {
		int length = text.length();
		int bytes = length;
		for (int i = 0; i < length; i++) {
			char c = text.charAt(i);
			if (c >= 0x80) {
				if (c < 0x800) {
					bytes += 1;
				}
				else if (Character.isSurrogate(c)) {
					if (Character.isHighSurrogate(c) && i + 1 < length
							&& Character.isLowSurrogate(text.charAt(i + 1))) {
						// Two chars, four bytes.
						bytes += 2;
						i++;
					}
				}
				else {
					bytes += 2;
				}
			}
		}
		return bytes;
	}

	/** A protobuf varint: an unsigned 64-bit value seven bits at a time. */
	void writeVarint(long value) throws IOException {
		room(10);
		long rest = value;
		while ((rest & ~0x7FL) != 0) {
			this.buffer[this.size++] = (byte) ((rest & 0x7F) | 0x80);
			rest >>>= 7;
		}
		this.buffer[this.size++] = (byte) rest;
	}

	static int varintSize(long value) {
		int bytes = 1;
		long rest = value;
		while ((rest & ~0x7FL) != 0) {
			bytes++;
			rest >>>= 7;
		}
		return bytes;
	}

	/** A protobuf double: its eight bytes, least significant first. */
	void writeFixed64(double value) throws IOException {
		room(8);
		long bits = Double.doubleToRawLongBits(value);
		for (int i = 0; i < 8; i++) {
			this.buffer[this.size++] = (byte) (bits >>> (8 * i));
		}
	}

	/** A protobuf string field: tag, length, UTF-8 bytes. */
	void writeStringField(int tag, String text) throws IOException {
		write(tag);
		writeVarint(utf8Length(text));
		writeUtf8(text, Escape.NONE);
	}

	/** What a string is escaped for. */
	enum Escape {

		/** Nothing escaped: protobuf, and text known to need no escaping. */
		NONE(false),

		/** A label value, and OpenMetrics help: backslash, double quote, new line. */
		QUOTED(true),

		/** Prometheus text help: backslash and new line. */
		HELP(false);

		private final boolean quotes;

		Escape(boolean quotes) {
			this.quotes = quotes;
		}

		boolean escapes(char c) {
			return this != NONE && (c == '\\' || c == '\n' || (this.quotes && c == '"'));
		}

	}

}
