//! An endpoint's refusal: an HTTP status and a sentence for the player.

/// A request the server will not carry out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status (4xx: the request's fault; 5xx: ours or the solver's time).
    pub status: u16,
    /// What was wrong, for the page to show.
    pub message: String,
}

impl ApiError {
    /// A malformed or out-of-range request (400).
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 400,
            message: message.into(),
        }
    }

    /// A request of a kind the server does not do here (403: no save folder, wrong host).
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 403,
            message: message.into(),
        }
    }

    /// Valid, but the level cannot be answered (422: no solution, no format for it).
    pub fn unanswerable(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 422,
            message: message.into(),
        }
    }
}
