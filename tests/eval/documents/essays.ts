// Evaluation corpus (../documents.ts), essays: a title and a byline at most, no journal; the thesis
// must come through in the summary.
import type { EvalDocument } from './eval-document.ts';

export const ESSAYS: EvalDocument[] = [
  {
    id: 'e-handmade',
    fileName: 'handmade-economics.txt',
    expected: {
      title: 'The Quiet Economics of Handmade Goods',
      authors: ['Okafor'],
      category: 'Essay',
      field: 'Business',
    },
    text: `The Quiet Economics of Handmade Goods
by Amara Okafor

In this essay I argue that handmade goods survive not despite their cost but because of it. Buyers of woven baskets and carved stools pay for a story, for the hands that made the object, and for its scarcity. Markets for mass-produced goods reward low prices; markets for handmade goods reward provenance and customer trust.

The problem is that artisans rarely capture that premium. Middlemen set prices, and the makers see a small share of the retail price. Cooperatives that sell directly online change the split and the sales margin. Drawing on Polanyi and Sen, I describe how these cooperatives turn reputation into income.`,
  },
  {
    id: 'e-boredom',
    fileName: 'on-boredom.txt',
    expected: {
      title: 'In Praise of Boredom',
      authors: ['Lindqvist'],
      category: 'Essay',
      field: 'Philosophy',
    },
    text: `In Praise of Boredom
by Erik Lindqvist

I think boredom is the most underrated of our moods. We treat it as a problem to be solved with a phone, a podcast, a scroll through the news. But boredom is the feeling of a mind with nothing to hold, and it is then that the mind begins to build. In this essay I argue that a life without boredom is a life without reflection.

Philosophers from Pascal to Heidegger saw in boredom a clue to the human condition. Pascal wrote that all of humanity's problems stem from our inability to sit quietly in a room alone. Perhaps the moral task of our age is to relearn that skill, and to protect children's empty afternoons from the attention economy.`,
  },
  {
    id: 'e-cities',
    fileName: 'walkable-cities.txt',
    expected: {
      title: 'Why Our Cities Forgot How to Walk',
      authors: ['Moreau'],
      category: 'Essay',
      field: 'Sociology',
    },
    text: `Why Our Cities Forgot How to Walk
by Claire Moreau

For most of history, a city was a place you crossed on foot. In the twentieth century we rebuilt our cities around the car, and in doing so we changed who meets whom. In this essay I argue that walkable neighbourhoods are not a lifestyle preference but a foundation of community life. When children can walk to school and older people can walk to the shops, strangers become neighbours.

Following Jane Jacobs, I look at sidewalks as the social infrastructure of urban life. Inequality shows up in who is forced to drive: households in car-dependent suburbs spend a large share of income on transport.`,
  },
  {
    id: 'e-translation',
    fileName: 'translation-essay.txt',
    expected: {
      title: 'What the Translator Knows',
      authors: ['Ferreira'],
      category: 'Essay',
      field: 'Literature',
    },
    text: `What the Translator Knows
by Ines Ferreira

Every translator of a novel faces the same choice on every page: to be faithful to the words or to the music. I believe the best translations betray the sentence to keep the voice. In this essay I argue that translation is a form of literary criticism, because each choice is an interpretation of the author's intent.

Reading Borges and Nabokov on translation, I compare three English versions of the same Portuguese poem. The most literal version is the least faithful: it keeps every metaphor and loses the rhythm that made the poet's characters sound alive.`,
  },
  {
    id: 'e-ai-ethics',
    fileName: 'algorithmic-fairness.txt',
    expected: {
      title: 'The Moral Limits of Algorithmic Fairness',
      authors: ['Abara'],
      category: 'Essay',
      field: 'Philosophy',
    },
    text: `The Moral Limits of Algorithmic Fairness
by Nneka Abara

Computer scientists have proposed dozens of mathematical definitions of fairness for algorithms that decide who gets a loan or parole. In this essay I argue that no formula can settle what fairness means, because fairness is a moral question before it is a technical one. The definitions conflict: an algorithm cannot be equally accurate for every group and give every group equal rates of approval at once.

Following Rawls, I suggest we ask which errors we could justify to the person who bears them. This is an ethical choice that belongs to the public, not to the engineers who train the model.`,
  },
];
