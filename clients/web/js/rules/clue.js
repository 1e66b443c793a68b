// How to play Clue, as this site plays it (docs/games/clue.md).
export default {
  title: "Clue",
  html: `
<p>Three to six players try to find the suspect, the weapon and the room of the crime.
One card of each kind is hidden in the envelope; the rest are dealt out as evenly as possible.</p>
<h2>The cards</h2>
<ul>
<li>Suspects: Scarlet, Mustard, White, Green, Peacock, Plum.</li>
<li>Weapons: Candlestick, Dagger, Lead Pipe, Revolver, Rope, Wrench.</li>
<li>Rooms: Kitchen, Ballroom, Conservatory, Dining Room, Billiard Room, Library, Lounge, Hall, Study.</li>
</ul>
<h2>A turn</h2>
<ul>
<li><b>Suggest</b> any suspect, weapon and room (there is no board: every room may be named).</li>
<li>The other players are asked in turn. The first who holds one of the three cards must show
<b>one</b> of them, of their choice, to you alone; everyone sees that a card was shown, and
who could not show one.</li>
<li>Then end your turn, or <b>accuse</b>: name the three cards you believe are in the envelope.
Right, you win. Wrong, you are out of the running, though you still show cards when asked.</li>
</ul>
<h2>What the odds show</h2>
<p>For every card, the chance that it is in the envelope or in each player's hand, counted
exactly over every deal that fits what you have seen and been shown. Your own marks on the
detective sheet are yours alone: they never change the odds.</p>`,
};
