//! The terminal side of the game: raw mode, the alternate screen and mouse capture (all undone
//! on quit, on an error, and on a panic through a hook), keys and clicks turned into
//! [`Action`]s, and the frame loop that also paces the watch replay.

use std::io::{IsTerminal, Stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event as TermEvent, KeyCode, KeyEvent,
    KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

use super::PlayOptions;
use super::state::{Action, Effect, Play};
use super::view::{self, Viewport};
use super::watch::{Feed, SolverFeed};

/// The key's action, if it has one. Ctrl-C quits: in raw mode it arrives as a key, not a
/// signal.
pub fn key_action(key: &KeyEvent) -> Option<Action> {
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return matches!(key.code, KeyCode::Char('c') | KeyCode::Char('d')).then_some(Action::Quit);
    }
    Some(match key.code {
        KeyCode::Up | KeyCode::Char('k') => Action::Up,
        KeyCode::Down | KeyCode::Char('j') => Action::Down,
        KeyCode::Left | KeyCode::Char('h') => Action::Left,
        KeyCode::Right | KeyCode::Char('l') => Action::Right,
        KeyCode::Char(' ') | KeyCode::Enter | KeyCode::Char('r') => Action::Rotate,
        KeyCode::Char('R') => Action::RotateBack,
        KeyCode::Char('u') => Action::Undo,
        KeyCode::Char('?') => Action::Explain,
        KeyCode::Char('H') => Action::Hint,
        KeyCode::Char('m') => Action::Mistakes,
        KeyCode::Char('s') => Action::Save,
        KeyCode::Char('n') => Action::NewLevel,
        KeyCode::Char('w') => Action::Watch,
        KeyCode::Char('+') | KeyCode::Char('=') => Action::Faster,
        KeyCode::Char('-') | KeyCode::Char('_') => Action::Slower,
        KeyCode::Char('q') | KeyCode::Esc => Action::Quit,
        _ => Action::Other,
    })
}

/// Set while the terminal is in game mode, so that restoring happens once and only then.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Leaves raw mode, the alternate screen and mouse capture, and shows the cursor.
pub fn restore_terminal() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let _ = disable_raw_mode();
        let _ = execute!(
            std::io::stdout(),
            DisableMouseCapture,
            LeaveAlternateScreen,
            ratatui::crossterm::cursor::Show
        );
    }
}

/// Restores the terminal when dropped (normal return, error, or unwinding panic).
struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

fn enter_terminal() -> Result<(TerminalGuard, Terminal<CrosstermBackend<Stdout>>), String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        // Restore first, so the panic message lands on a usable screen.
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore_terminal();
            previous(info);
        }));
    });
    let fail = |e: std::io::Error| format!("cannot set up the terminal: {e}");
    enable_raw_mode().map_err(fail)?;
    ACTIVE.store(true, Ordering::SeqCst);
    let guard = TerminalGuard;
    execute!(std::io::stdout(), EnterAlternateScreen, EnableMouseCapture).map_err(fail)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(std::io::stdout())).map_err(fail)?;
    terminal.hide_cursor().map_err(fail)?;
    terminal.clear().map_err(fail)?;
    Ok((guard, terminal))
}

/// Runs the game until the player quits or `cancel` is raised (SIGTERM, SIGHUP).
pub fn run(opts: &PlayOptions, cancel: &AtomicBool) -> Result<(), String> {
    // The level first, so a bad file is reported as such even without a terminal.
    let mut play = Play::new(opts, Instant::now())?;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err("--play needs a terminal (standard input and output are not one)".into());
    }
    let (_guard, mut terminal) = enter_terminal()?;
    event_loop(&mut terminal, &mut play, cancel).map_err(|e| format!("terminal error: {e}"))
}

fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    play: &mut Play,
    cancel: &AtomicBool,
) -> std::io::Result<()> {
    let mut feed: Option<SolverFeed> = None;
    let mut viewport: Option<Viewport> = None;
    loop {
        let now = Instant::now();
        if let Some(f) = feed.as_mut() {
            for _ in 0..play.events_due(now) {
                match f.poll() {
                    Feed::Event(e) => play.watch_event(e),
                    Feed::Pending => break,
                    Feed::Done(outcome) => {
                        play.watch_end(outcome, now);
                        feed = None;
                        break;
                    }
                }
            }
        }
        terminal.draw(|frame| viewport = view::draw(frame, play, now))?;
        if play.quit || cancel.load(Ordering::SeqCst) {
            return Ok(());
        }
        // Watching needs smooth frames; otherwise only the clock ticks.
        let wait = if feed.is_some() {
            Duration::from_millis(16)
        } else {
            Duration::from_millis(250)
        };
        if !event::poll(wait)? {
            continue;
        }
        let action = match event::read()? {
            TermEvent::Key(k) if k.kind != KeyEventKind::Release => key_action(&k),
            TermEvent::Mouse(m) => {
                let back = match m.kind {
                    MouseEventKind::Down(MouseButton::Left) => Some(false),
                    MouseEventKind::Down(MouseButton::Right) => Some(true),
                    _ => None,
                };
                back.zip(viewport.and_then(|vp| vp.cell_at(m.column, m.row)))
                    .map(|(back, (row, col))| Action::Click { row, col, back })
            }
            _ => None,
        };
        if let Some(action) = action {
            match play.apply(action, Instant::now()) {
                Effect::None => {}
                Effect::StartWatch => feed = Some(SolverFeed::start(&play.game)),
                Effect::StopWatch => feed = None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn keys_map_to_actions() {
        let none = KeyModifiers::NONE;
        assert_eq!(
            key_action(&key(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Some(Action::Quit)
        );
        assert_eq!(key_action(&key(KeyCode::Esc, none)), Some(Action::Quit));
        assert_eq!(
            key_action(&key(KeyCode::Char('h'), none)),
            Some(Action::Left)
        );
        assert_eq!(
            key_action(&key(KeyCode::Char('?'), none)),
            Some(Action::Explain)
        );
        assert_eq!(
            key_action(&key(KeyCode::Char('H'), KeyModifiers::SHIFT)),
            Some(Action::Hint)
        );
        assert_eq!(key_action(&key(KeyCode::Enter, none)), Some(Action::Rotate));
        assert_eq!(
            key_action(&key(KeyCode::Char('R'), KeyModifiers::SHIFT)),
            Some(Action::RotateBack)
        );
        // An unbound key still reaches the game: it cancels a pending question.
        assert_eq!(
            key_action(&key(KeyCode::Char('x'), none)),
            Some(Action::Other)
        );
        assert_eq!(
            key_action(&key(KeyCode::Char('s'), KeyModifiers::CONTROL)),
            None
        );
    }
}
