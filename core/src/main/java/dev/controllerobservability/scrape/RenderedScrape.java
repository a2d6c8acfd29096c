package dev.controllerobservability.scrape;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;

/**
 * One rendering of a scrape, held in fixed-size chunks and never copied into one array:
 * every request that shared the rendering is served these bytes. Example:
 *
 * <pre>{@code
 * RenderedScrape rendered = scrape.scrape(ScrapeFormat.PROMETHEUS_TEXT, null);
 * exchange.sendResponseHeaders(200, rendered.size());
 * rendered.writeTo(exchange.getResponseBody());
 * }</pre>
 */
public final class RenderedScrape {

	private final String contentType;

	private final List<byte[]> chunks;

	private final long size;

	RenderedScrape(String contentType, List<byte[]> chunks, long size) {
		this.contentType = contentType;
		this.chunks = chunks;
		this.size = size;
	}

	/**
	 * The content type to serve the bytes with.
	 * @return the content type of the format rendered
	 */
	public String contentType() {
		return this.contentType;
	}

	/**
	 * The number of bytes.
	 * @return the size
	 */
	public long size() {
		return this.size;
	}

	/**
	 * Writes every byte, chunk by chunk.
	 * @param out where to write
	 * @throws IOException when the stream fails
	 */
	public void writeTo(OutputStream out) throws IOException {
		long left = this.size;
		for (byte[] chunk : this.chunks) {
			int length = (int) Math.min(chunk.length, left);
			out.write(chunk, 0, length);
			left -= length;
		}
	}

	/**
	 * A new stream of the bytes, for a server that pulls the body.
	 * @return the stream
	 */
	public InputStream inputStream() {
		return new ChunksInputStream();
	}

	private final class ChunksInputStream extends InputStream {

		private int chunk;

		private int position;

		private long left = RenderedScrape.this.size;

		@Override
		public int read() {
			byte[] one = new byte[1];
			return (read(one, 0, 1) < 0) ? -1 : (one[0] & 0xff);
		}

		@Override
		public int read(byte[] buffer, int offset, int length) {
			if (this.left == 0) {
				return -1;
			}
			if (length == 0) {
				return 0;
			}
			byte[] current = RenderedScrape.this.chunks.get(this.chunk);
			int count = (int) Math.min(Math.min(length, current.length - this.position), this.left);
			System.arraycopy(current, this.position, buffer, offset, count);
			this.position += count;
			this.left -= count;
			if (this.position == current.length) {
				this.chunk++;
				this.position = 0;
			}
			return count;
		}

		@Override
		public int available() {
			return (int) Math.min(Integer.MAX_VALUE, this.left);
		}

	}

}
