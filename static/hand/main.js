// The hand form's scripts (loaded as modules by hand.html and scoreboard.html; text.js and panel.js
// import the phone's queue, the page's texts and the queued hand's opening from ../app.js).
//
// Entry that survives a dropped connection with or without a service worker (a phone on plain
// http:// gets none): the form is sent by script, and when the server cannot be reached the hand
// goes into the phone's queue (app.js), shown as waiting and sent when the connection is back. The
// scoreboard and the next hand's form are both kept in the page (panel.js), so moving between them
// needs no network either. Without script the form is an ordinary form and the links are ordinary links.
//
//   form.js    one hand form: the steppers, counts that move on by themselves, its wiring
//   entry.js   the hand's values in the API's shape, and kept on the phone as a draft
//   checks.js  the live preview of the score, and the problems beside their fields
//   send.js    saving by script, or keeping the hand in the phone's queue
//   panel.js   the scoreboard and the next hand's form in one page
//   net.js     requests that give up, pages parsed;  text.js: numbers, texts, the queue
import { initForm } from "./form.js";
import { startBoard } from "./panel.js";
import { sentFromHere } from "./send.js";

function start(main) {
  // Back to a page kept by the browser after it was sent: its key is used up, so a new entry there
  // would be taken for the same hand sent twice. Load it fresh instead.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted && sentFromHere()) location.reload();
  });
  const handForm = main.querySelector("form.hand-form");
  const startedAs = handForm && handForm.dataset.queueUrl ? "hand" : !handForm && main.dataset.liveGame ? "score" : null;
  if (startedAs) startBoard(main, startedAs);
  else if (handForm) initForm(handForm);  // a correction: the form alone
}

const main = document.querySelector("main");
if (main) start(main);
