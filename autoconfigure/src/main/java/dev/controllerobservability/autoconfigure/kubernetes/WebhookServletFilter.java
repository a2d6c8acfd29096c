package dev.controllerobservability.autoconfigure.kubernetes;

import java.io.IOException;
import java.util.Optional;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.controllerobservability.kubernetes.webhook.WebhookMetrics;

/**
 * Records each request to a declared webhook path on the servlet stack: an exception that
 * leaves the handlers (one no exception handler turned into a response) is a panic, and
 * the container answers it with 500.
 */
final class WebhookServletFilter extends OncePerRequestFilter implements Ordered {

	private final WebhookMetrics metrics;

	WebhookServletFilter(WebhookMetrics metrics) {
		this.metrics = metrics;
	}

	@Override
	public int getOrder() {
		return WebhookObservation.FILTER_ORDER;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		Optional<WebhookMetrics.Webhook> webhook = this.metrics
			.webhook(request.getRequestURI().substring(request.getContextPath().length()));
		if (webhook.isEmpty()) {
			chain.doFilter(request, response);
			return;
		}
		WebhookMetrics.Request observed = webhook.get().start();
		try {
			chain.doFilter(request, response);
		}
		catch (ServletException | IOException | RuntimeException | Error ex) {
			observed.panicked();
			throw ex;
		}
		if (request.isAsyncStarted()) {
			request.getAsyncContext().addListener(new Completion(observed, response));
		}
		else {
			observed.finish(response.getStatus());
		}
	}

	/** Finishes a request whose handler answers asynchronously. */
	private record Completion(WebhookMetrics.Request observed, HttpServletResponse response) implements AsyncListener {

		@Override
		public void onComplete(AsyncEvent event) {
			this.observed.finish(this.response.getStatus());
		}

		@Override
		public void onTimeout(AsyncEvent event) {
		}

		@Override
		public void onError(AsyncEvent event) {
			this.observed.panicked();
		}

		@Override
		public void onStartAsync(AsyncEvent event) {
			event.getAsyncContext().addListener(this);
		}

	}

}
