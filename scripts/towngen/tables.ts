// The seeded tables a generated town is drawn from: names, traits, hobbies, looks, street and business
// names, and the kinds of workplace with their rooms, jobs and hours. Plain data; generateTown.ts picks
// from them with a seeded Rng, so one seed always gives the same town.

export type Gender = 'female' | 'male';

export const FEMALE_NAMES = [
  'Ada', 'Aiko', 'Alice', 'Amara', 'Amelia', 'Ana', 'Anya', 'Aria', 'Astrid', 'Bea', 'Bianca', 'Camila', 'Carmen', 'Chloe', 'Clara', 'Dalia',
  'Daria', 'Delia', 'Eden', 'Elena', 'Eliza', 'Elsa', 'Emma', 'Esme', 'Eva', 'Fatima', 'Fern', 'Fiona', 'Freya', 'Gemma', 'Grace', 'Hana',
  'Hazel', 'Helen', 'Ida', 'Imani', 'Ines', 'Iris', 'Isla', 'Ivy', 'Jade', 'Jana', 'Jia', 'Julia', 'June', 'Kaia', 'Kira', 'Lara',
  'Layla', 'Lea', 'Leila', 'Lena', 'Lila', 'Lina', 'Lucia', 'Luna', 'Lydia', 'Mabel', 'Maya', 'Mei', 'Mila', 'Mina', 'Mira', 'Nadia',
  'Naomi', 'Nell', 'Nina', 'Noor', 'Nora', 'Olga', 'Olive', 'Paula', 'Pia', 'Priya', 'Quinn', 'Rana', 'Rhea', 'Rosa', 'Ruby', 'Sadie',
  'Sana', 'Sara', 'Selma', 'Sofia', 'Stella', 'Suki', 'Talia', 'Tess', 'Thea', 'Uma', 'Vera', 'Wren', 'Yara', 'Yuki', 'Zara', 'Zoe',
];

export const MALE_NAMES = [
  'Aaron', 'Adam', 'Ahmed', 'Alan', 'Aldo', 'Amir', 'Andre', 'Arjun', 'Arlo', 'Ben', 'Bruno', 'Caleb', 'Carlos', 'Cyrus', 'Dan', 'Dario',
  'David', 'Dev', 'Diego', 'Eli', 'Emil', 'Enzo', 'Eric', 'Ezra', 'Felix', 'Finn', 'Frank', 'Gabe', 'Hamid', 'Hans', 'Hugo', 'Ian',
  'Idris', 'Igor', 'Isaac', 'Ivan', 'Jack', 'Jamal', 'Jonas', 'Jorge', 'Josh', 'Kai', 'Karl', 'Ken', 'Kofi', 'Leo', 'Liam', 'Lior',
  'Luca', 'Luis', 'Malik', 'Marco', 'Mark', 'Mateo', 'Max', 'Milo', 'Nate', 'Nico', 'Noah', 'Olaf', 'Omar', 'Oscar', 'Otto', 'Owen',
  'Pablo', 'Paul', 'Pedro', 'Raj', 'Ravi', 'Rex', 'Rory', 'Ruben', 'Sam', 'Santi', 'Sean', 'Sven', 'Taro', 'Teo', 'Theo', 'Tom',
  'Umar', 'Vic', 'Viktor', 'Wes', 'Will', 'Xavi', 'Yann', 'Yusuf', 'Zane', 'Zeke', 'Ali', 'Bram', 'Cole', 'Dmitri', 'Emre', 'Femi',
];

export const SURNAMES = [
  'Abara', 'Adler', 'Alvarez', 'Amari', 'Andersen', 'Arroyo', 'Baker', 'Banerjee', 'Barros', 'Bauer', 'Becker', 'Bell', 'Berg', 'Bianchi', 'Bishop', 'Blake',
  'Bloom', 'Bose', 'Brandt', 'Brooks', 'Campbell', 'Carter', 'Castro', 'Chen', 'Clarke', 'Cohen', 'Costa', 'Cruz', 'Dahl', 'Das', 'Davies', 'Diaz',
  'Dubois', 'Duarte', 'Eklund', 'Ellis', 'Evans', 'Falk', 'Farah', 'Fischer', 'Flores', 'Foster', 'Fox', 'Garcia', 'Gill', 'Gomez', 'Grant', 'Gray',
  'Gupta', 'Hale', 'Hansen', 'Harper', 'Hayes', 'Holm', 'Hughes', 'Ibrahim', 'Ito', 'Jensen', 'Jones', 'Kane', 'Kato', 'Keller', 'Khan', 'Kim',
  'Klein', 'Koch', 'Kovacs', 'Kumar', 'Lam', 'Lang', 'Larsen', 'Lee', 'Lopez', 'Lund', 'Maddox', 'Mendes', 'Meyer', 'Mills', 'Mora', 'Morgan',
  'Mori', 'Murphy', 'Nagy', 'Nair', 'Navarro', 'Nguyen', 'Novak', 'Nunez', 'Obi', 'Ortiz', 'Osei', 'Owens', 'Park', 'Patel', 'Perez', 'Pham',
  'Price', 'Quinn', 'Ramos', 'Rao', 'Reyes', 'Ross', 'Roth', 'Sato', 'Schmidt', 'Shah', 'Silva', 'Singh', 'Sousa', 'Stone', 'Suzuki', 'Tan',
  'Torres', 'Vance', 'Varga', 'Vega', 'Wagner', 'Walsh', 'Wang', 'Weber', 'Wells', 'Wolf', 'Wong', 'Yamada', 'Yilmaz', 'Young', 'Zhang', 'Ziegler',
];

/** Innate traits in groups of near-synonyms: a persona takes at most one from a group, so none contradict. */
export const TRAIT_GROUPS: readonly (readonly string[])[] = [
  ['friendly', 'warm', 'welcoming'],
  ['curious', 'inquisitive'],
  ['shy', 'reserved', 'quiet'],
  ['outgoing', 'talkative', 'sociable'],
  ['patient', 'calm', 'even-tempered'],
  ['energetic', 'restless', 'lively'],
  ['organised', 'methodical', 'tidy'],
  ['creative', 'imaginative', 'artistic'],
  ['practical', 'down-to-earth'],
  ['funny', 'witty', 'playful'],
  ['stubborn', 'determined', 'persistent'],
  ['kind', 'generous', 'thoughtful'],
  ['anxious', 'cautious', 'careful'],
  ['ambitious', 'driven', 'hard-working'],
  ['easygoing', 'relaxed', 'laid-back'],
  ['honest', 'blunt', 'direct'],
  ['dreamy', 'romantic', 'sentimental'],
  ['proud', 'confident'],
];
/** Traits that do not sit together in one person. */
export const TRAIT_CLASHES: ReadonlyArray<[number, number]> = [[2, 3], [4, 5], [8, 16], [12, 17], [14, 13]];

/** A hobby: what the persona loves, and where and how they do it (`kind` picks a place of the town or of home). */
export interface Hobby {
  name: string;
  /** A sentence tail: "<First> loves ...". */
  loves: string;
  activity: string;
  emoji: string;
  where: 'park' | 'pub' | 'cafe' | 'library' | 'studio' | 'home-living' | 'home-kitchen' | 'shop' | 'music';
  /** An object at home that goes with it, drawn in the living room when the home has one. */
  homeObject?: 'tv' | 'bookshelf' | 'piano' | 'easel';
  tasks?: string[];
}

export const HOBBIES: readonly Hobby[] = [
  { name: 'reading', loves: 'reading novels', activity: 'reading a novel', emoji: '📖', where: 'library', homeObject: 'bookshelf', tasks: ['browsing for a new book', 'reading quietly'] },
  { name: 'running', loves: 'running in the park', activity: 'going for a run', emoji: '🏃', where: 'park', tasks: ['stretching', 'jogging a lap'] },
  { name: 'painting', loves: 'painting landscapes', activity: 'painting', emoji: '🎨', where: 'studio', homeObject: 'easel', tasks: ['mixing paints', 'sketching an outline'] },
  { name: 'piano', loves: 'playing the piano', activity: 'practising the piano', emoji: '🎹', where: 'music', homeObject: 'piano', tasks: ['playing scales', 'learning a new piece'] },
  { name: 'gardening', loves: 'gardening', activity: 'tending the flowers', emoji: '🌷', where: 'park', tasks: ['weeding', 'watering the plants'] },
  { name: 'cooking', loves: 'cooking for friends', activity: 'trying a new recipe', emoji: '🍲', where: 'home-kitchen', tasks: ['chopping vegetables', 'tasting the sauce'] },
  { name: 'films', loves: 'old films', activity: 'watching a film', emoji: '🎬', where: 'home-living', homeObject: 'tv' },
  { name: 'chess', loves: 'playing chess', activity: 'playing chess', emoji: '♟️', where: 'cafe', tasks: ['studying an opening', 'playing a game of chess'] },
  { name: 'darts', loves: 'darts at the pub', activity: 'playing darts with friends', emoji: '🎯', where: 'pub' },
  { name: 'quiz', loves: 'pub quizzes', activity: 'doing the pub quiz', emoji: '🧠', where: 'pub' },
  { name: 'birdwatching', loves: 'watching birds', activity: 'watching birds', emoji: '🐦', where: 'park', tasks: ['counting sparrows', 'listening for a robin'] },
  { name: 'knitting', loves: 'knitting', activity: 'knitting a scarf', emoji: '🧶', where: 'home-living', tasks: ['casting on', 'knitting a row'] },
  { name: 'baking', loves: 'baking bread', activity: 'baking', emoji: '🍞', where: 'home-kitchen', tasks: ['kneading dough', 'waiting for the bread to rise'] },
  { name: 'history', loves: 'local history', activity: 'reading about the town\'s history', emoji: '📜', where: 'library', homeObject: 'bookshelf' },
  { name: 'photography', loves: 'photography', activity: 'taking photographs', emoji: '📷', where: 'park', tasks: ['framing a shot', 'waiting for the light'] },
  { name: 'writing', loves: 'writing short stories', activity: 'writing in a notebook', emoji: '✍️', where: 'cafe', tasks: ['drafting a story', 'rereading yesterday\'s pages'] },
  { name: 'board games', loves: 'board games', activity: 'playing board games', emoji: '🎲', where: 'cafe' },
  { name: 'guitar', loves: 'playing the guitar', activity: 'playing the guitar', emoji: '🎸', where: 'home-living', tasks: ['tuning the guitar', 'practising chords'] },
  { name: 'shopping', loves: 'browsing the shops', activity: 'browsing the shops', emoji: '🛍️', where: 'shop' },
  { name: 'singing', loves: 'singing in the town choir', activity: 'singing', emoji: '🎶', where: 'music' },
];

/** What children and students do after school, and where. */
export const CHILD_PLAY = [
  { activity: 'playing with friends in the park', emoji: '⚽', where: 'park' as const },
  { activity: 'reading comics', emoji: '📚', where: 'library' as const },
  { activity: 'playing video games', emoji: '🎮', where: 'home-living' as const },
  { activity: 'drawing pictures', emoji: '🖍️', where: 'home-kitchen' as const },
];

/** Goals for "currently": {first} is the first name, {they}/{their} the pronouns, {work} the workplace. */
export const PURSUITS = {
  worker: [
    '{first} is saving up for a trip to the coast this summer.',
    '{first} is hoping for a promotion at {work} this spring.',
    '{first} is learning Spanish in the evenings.',
    '{first} is training for the town\'s spring fun run.',
    '{first} has just taken up {hobby} and talks about it to anyone who listens.',
    '{first} is trying to get to know {their} colleagues at {work} better.',
    '{first} is thinking about moving to a bigger home.',
    '{first} wants to spend more time with friends and less at work.',
    '{first} is redecorating {their} kitchen, one weekend at a time.',
    '{first} is keen to hear what is new in town.',
  ],
  parent: [
    '{first} is juggling work at {work} and the children\'s school runs.',
    '{first} is planning a family holiday for the summer.',
    '{first} is helping {their} children with their homework every evening.',
  ],
  retired: [
    '{first} is enjoying retirement and has more time for {hobby}.',
    '{first} is writing down stories of the town for {their} grandchildren.',
    '{first} volunteers wherever a hand is needed and knows everyone\'s news.',
    '{first} is keeping up with {their} old friends and the gossip of the town.',
  ],
  student: [
    '{first} is studying hard for the end-of-term exams.',
    '{first} is trying to make the school football team.',
    '{first} is working on a science project about the park\'s birds.',
    '{first} can\'t wait for the school holidays.',
  ],
  college: [
    '{first} is writing an essay due at the end of the month.',
    '{first} is wondering what to do after college.',
    '{first} is organising a study group at {work}.',
  ],
  home: [
    '{first} runs the household and keeps an eye on the neighbours\' news.',
    '{first} is writing a novel at the kitchen table.',
    '{first} is looking for a new job and asks around town for leads.',
  ],
} as const;

export const SKIN_TONES = ['#f1c27d', '#e0ac69', '#c68642', '#8d5524', '#ffdbac', '#d1a37c', '#a16e4b', '#6b4226'];
export const HAIR_COLOURS = ['#2c1b10', '#4a2f1b', '#6d4c2f', '#b5835a', '#d9b26b', '#8c2f14', '#1b1b1b', '#3b3024', '#a0522d', '#e3c77b'];
export const GREY_HAIR = ['#b8b8b8', '#d9d9d9', '#9a9a9a', '#eeeeee'];
export const SHIRT_COLOURS = ['#c0392b', '#2980b9', '#27ae60', '#8e44ad', '#f39c12', '#16a085', '#d35400', '#2c3e50', '#e84393', '#7f8c8d', '#f1c40f', '#1abc9c', '#6c5ce7', '#b33939', '#218c74', '#ff7f50'];
export const PANTS_COLOURS = ['#2c3e50', '#34495e', '#1e272e', '#4b3621', '#5d6d7e', '#22313f', '#6f4e37', '#2d3436', '#3d3d6b', '#556b2f'];

export const TOWN_NAMES = ['Maplebrook', 'Willowmere', 'Ashford Vale', 'Brightwater', 'Cedar Hollow', 'Elmstead', 'Foxley', 'Harrowgate', 'Kingsbridge', 'Larkfield', 'Millbrook', 'Northwick', 'Oakhaven', 'Pinecrest', 'Ravensworth', 'Stonebridge'];
export const STREET_NAMES = ['Maple', 'Elm', 'Cedar', 'Willow', 'Birch', 'Alder', 'Rowan', 'Hazel', 'Juniper', 'Laurel', 'Poplar', 'Linden', 'Chestnut', 'Holly', 'Aspen', 'Magnolia', 'Sycamore', 'Beech', 'Spruce', 'Cypress', 'Hawthorn', 'Myrtle', 'Olive', 'Larch'];
export const STREET_KINDS = ['Street', 'Lane', 'Road', 'Row', 'Avenue', 'Way', 'Close', 'Terrace'];
/** Words for business names: "<word> Cafe", "The <word> Bakery". */
export const BUSINESS_WORDS = [
  'Sunrise', 'Copper', 'Bluebell', 'Harbour', 'Lantern', 'Meadow', 'Juniper', 'Silver', 'Golden', 'Hillside', 'Riverside', 'Orchard', 'Kestrel', 'Thistle', 'Ivy', 'Amber',
  'Corner', 'Little', 'Old Mill', 'Market', 'Green', 'Linden', 'Foxglove', 'Saffron', 'Marigold', 'Beacon', 'Willow', 'Northgate', 'Brook', 'Heron', 'Cobble', 'Starling',
];
export const PUB_NAMES = ['The Rose and Crown', 'The Red Lion', 'The Crooked Oak', 'The Fox and Hound', 'The Golden Hare', 'The Ship', 'The Three Bells', 'The Plough', 'The Kings Arms', 'The White Hart', 'The Black Swan', 'The Anchor'];
export const PARK_WORDS = ['Johnson', 'Riverside', 'Meadow', 'Victoria', 'Hilltop', 'Willow', 'Central', 'Orchard', 'Lakeside', 'Sunnyside', 'Elm', 'Greenway'];

/** A room of a workplace: its arena name, width in tiles and objects (see maps/scripts/townBuilder.ts Room). */
export interface WorkRoom {
  arena: string;
  width: number;
  floor: 'wood floor' | 'tile floor' | 'carpet';
  objects: Array<string | [string, number, number]>;
}

/** A job at a workplace: where in it, how many, its hours and the work itself. */
export interface Job {
  title: string;
  /** Arena of the workplace this job works in (the persona's workplace). */
  room: string;
  slots: number;
  /** Shift start and end, minutes after midnight; an end past 1440 is after midnight. */
  start: number;
  end: number;
  activity: string;
  /** An object of the room the first block happens at, or none for the whole room. */
  at?: string;
  emoji: string;
  tasks: string[];
}

export type WorkplaceKind =
  | 'cafe' | 'bakery' | 'grocery' | 'restaurant' | 'pub' | 'library' | 'school' | 'college' | 'clinic' | 'office' | 'townhall' | 'workshop' | 'studio' | 'bookshop' | 'music';

export interface WorkplaceType {
  kind: WorkplaceKind;
  /** How the sector is named: {word} a business word, {pub} a pub name. */
  name: string;
  rooms: WorkRoom[];
  /** The room of the front door. */
  doorRoom: number;
  jobs: Job[];
  /** Relative share of a town's workplaces (0: only as many as needed, e.g. schools). */
  weight: number;
  /** Where visitors go: the arena and objects they use. */
  visit?: { room: string; objects: string[] };
}

const h = (hh: number, mm = 0) => hh * 60 + mm;

export const WORKPLACES: readonly WorkplaceType[] = [
  {
    kind: 'cafe', name: '{word} Cafe', doorRoom: 0, weight: 2,
    rooms: [
      { arena: 'cafe', width: 14, floor: 'wood floor', objects: [['counter', 1, 0], ['coffee machine', 3, 0], ['table', 3, 4], ['table 2', 7, 4], ['table 3', 11, 4], ['table 4', 11, 1]] },
      { arena: 'kitchen', width: 5, floor: 'tile floor', objects: ['stove', 'sink', 'fridge'] },
    ],
    jobs: [
      { title: 'barista', room: 'cafe', slots: 2, start: h(6, 30), end: h(15), activity: 'serving customers', at: 'counter', emoji: '☕', tasks: ['brewing coffee', 'wiping the tables', 'chatting with regulars', 'taking orders'] },
      { title: 'barista', room: 'cafe', slots: 1, start: h(11), end: h(19, 30), activity: 'serving customers', at: 'coffee machine', emoji: '☕', tasks: ['brewing coffee', 'clearing cups', 'restocking the pastries'] },
      { title: 'cook', room: 'kitchen', slots: 1, start: h(7), end: h(15, 30), activity: 'cooking for the cafe', at: 'stove', emoji: '🍳', tasks: ['baking muffins', 'making sandwiches', 'washing dishes'] },
    ],
    visit: { room: 'cafe', objects: ['table', 'table 2', 'table 3', 'table 4'] },
  },
  {
    kind: 'bakery', name: '{word} Bakery', doorRoom: 0, weight: 1,
    rooms: [
      { arena: 'shop', width: 9, floor: 'tile floor', objects: [['counter', 1, 5], 'shelf', ['shelf 2', 4, 0], ['shelf 3', 8, 0]] },
      { arena: 'bakehouse', width: 6, floor: 'tile floor', objects: ['stove', 'stove 2', ['table', 2, 3]] },
    ],
    jobs: [
      { title: 'baker', room: 'bakehouse', slots: 2, start: h(5), end: h(13), activity: 'baking bread', at: 'stove', emoji: '🍞', tasks: ['kneading dough', 'shaping loaves', 'taking bread out of the oven'] },
      { title: 'shop assistant', room: 'shop', slots: 2, start: h(7), end: h(15), activity: 'selling bread', at: 'counter', emoji: '🥖', tasks: ['stocking the shelves', 'serving customers', 'wrapping cakes'] },
    ],
    visit: { room: 'shop', objects: ['counter', 'shelf', 'shelf 2'] },
  },
  {
    kind: 'grocery', name: '{word} Grocery', doorRoom: 0, weight: 1.5,
    rooms: [{ arena: 'shop', width: 12, floor: 'tile floor', objects: [['counter', 1, 5], 'shelf', ['shelf 2', 4, 0], ['shelf 3', 6, 0], ['fridge', 10, 0], ['shelf 4', 6, 3]] }],
    jobs: [
      { title: 'shopkeeper', room: 'shop', slots: 1, start: h(7), end: h(17), activity: 'running the shop', at: 'counter', emoji: '🛒', tasks: ['checking deliveries', 'serving customers', 'doing the accounts'] },
      { title: 'cashier', room: 'shop', slots: 2, start: h(8), end: h(16, 30), activity: 'working the till', at: 'counter', emoji: '🧾', tasks: ['stocking the shelves', 'serving customers', 'restocking the fridge'] },
      { title: 'cashier', room: 'shop', slots: 1, start: h(13), end: h(21), activity: 'working the till', at: 'counter', emoji: '🧾', tasks: ['stocking the shelves', 'serving customers', 'closing up the shop'] },
    ],
    visit: { room: 'shop', objects: ['shelf', 'shelf 2', 'shelf 3', 'fridge'] },
  },
  {
    kind: 'restaurant', name: '{word} Bistro', doorRoom: 0, weight: 1.2,
    rooms: [
      { arena: 'dining room', width: 14, floor: 'wood floor', objects: [['counter', 1, 0], ['table', 3, 3], ['table 2', 7, 3], ['table 3', 11, 3], ['table 4', 5, 6], ['table 5', 9, 6]] },
      { arena: 'kitchen', width: 6, floor: 'tile floor', objects: ['stove', 'stove 2', 'sink', ['fridge', 5, 6]] },
    ],
    jobs: [
      { title: 'waiter', room: 'dining room', slots: 3, start: h(11), end: h(22), activity: 'waiting tables', at: 'counter', emoji: '🍽️', tasks: ['taking orders', 'serving dishes', 'laying the tables', 'clearing plates'] },
      { title: 'chef', room: 'kitchen', slots: 2, start: h(10, 30), end: h(22), activity: 'cooking in the restaurant kitchen', at: 'stove', emoji: '👨‍🍳', tasks: ['prepping vegetables', 'making the sauce', 'plating dishes', 'cleaning the kitchen'] },
    ],
    visit: { room: 'dining room', objects: ['table', 'table 2', 'table 3', 'table 4', 'table 5'] },
  },
  {
    kind: 'pub', name: '{pub}', doorRoom: 0, weight: 1,
    rooms: [{ arena: 'bar', width: 14, floor: 'wood floor', objects: [['bar counter', 2, 0], ['piano', 12, 0], ['table', 3, 4], ['table 2', 7, 4], ['table 3', 11, 4], ['table 4', 7, 1]] }],
    jobs: [
      { title: 'bartender', room: 'bar', slots: 2, start: h(16), end: h(23, 30), activity: 'pouring drinks', at: 'bar counter', emoji: '🍺', tasks: ['pulling pints', 'chatting with regulars', 'washing glasses'] },
      { title: 'pub landlord', room: 'bar', slots: 1, start: h(11), end: h(23), activity: 'running the pub', at: 'bar counter', emoji: '🍺', tasks: ['changing a barrel', 'serving lunch', 'chatting with regulars', 'doing the books'] },
    ],
    visit: { room: 'bar', objects: ['table', 'table 2', 'table 3', 'table 4', 'bar counter'] },
  },
  {
    kind: 'library', name: '{word} Library', doorRoom: 0, weight: 0.5,
    rooms: [
      { arena: 'library', width: 14, floor: 'carpet', objects: ['bookshelf', 'bookshelf 2', 'bookshelf 3', 'bookshelf 4', ['desk', 2, 4], ['desk 2', 6, 4], ['desk 3', 10, 4], ['counter', 12, 6]] },
      { arena: 'office', width: 5, floor: 'carpet', objects: ['desk', 'filing cabinet'] },
    ],
    jobs: [
      { title: 'librarian', room: 'library', slots: 2, start: h(9), end: h(17, 30), activity: 'helping readers', at: 'counter', emoji: '📚', tasks: ['shelving returned books', 'cataloguing new books', 'helping a reader find a book'] },
      { title: 'archivist', room: 'office', slots: 1, start: h(9), end: h(17), activity: 'sorting the archive', at: 'desk', emoji: '🗂️', tasks: ['filing old records', 'repairing a book'] },
    ],
    visit: { room: 'library', objects: ['desk', 'desk 2', 'desk 3', 'bookshelf', 'bookshelf 2'] },
  },
  {
    kind: 'school', name: '{word} School', doorRoom: 1, weight: 0,
    rooms: [
      { arena: 'classroom', width: 11, floor: 'wood floor', objects: [['blackboard', 5, 0], ['lectern', 5, 2], ['desk', 1, 4], ['desk 2', 3, 4], ['desk 3', 5, 4], ['desk 4', 7, 4], ['desk 5', 9, 4]] },
      { arena: 'office', width: 5, floor: 'carpet', objects: ['desk', 'filing cabinet'] },
      { arena: 'classroom 2', width: 11, floor: 'wood floor', objects: [['blackboard', 5, 0], ['lectern', 5, 2], ['desk', 1, 4], ['desk 2', 3, 4], ['desk 3', 5, 4], ['desk 4', 7, 4], ['desk 5', 9, 4]] },
    ],
    jobs: [
      { title: 'teacher', room: 'classroom', slots: 2, start: h(8), end: h(16), activity: 'teaching a class', at: 'lectern', emoji: '🧑‍🏫', tasks: ['writing on the blackboard', 'marking homework', 'helping a pupil'] },
      { title: 'teacher', room: 'classroom 2', slots: 2, start: h(8), end: h(16), activity: 'teaching a class', at: 'lectern', emoji: '🧑‍🏫', tasks: ['writing on the blackboard', 'marking homework', 'reading to the class'] },
      { title: 'head teacher', room: 'office', slots: 1, start: h(7, 30), end: h(17), activity: 'running the school', at: 'desk', emoji: '🏫', tasks: ['meeting a parent', 'planning the timetable', 'answering letters'] },
    ],
  },
  {
    kind: 'college', name: '{word} College', doorRoom: 1, weight: 0,
    rooms: [
      { arena: 'library', width: 8, floor: 'carpet', objects: ['bookshelf', 'bookshelf 2', ['desk', 2, 4], ['desk 2', 5, 4]] },
      { arena: 'lecture hall', width: 11, floor: 'wood floor', objects: [['blackboard', 5, 0], ['lectern', 5, 2], ['desk', 2, 5], ['desk 2', 5, 5], ['desk 3', 8, 5]] },
      { arena: 'office', width: 5, floor: 'carpet', objects: ['desk', 'bookshelf'] },
    ],
    jobs: [
      { title: 'professor', room: 'lecture hall', slots: 2, start: h(9), end: h(17), activity: 'giving a lecture', at: 'lectern', emoji: '🎓', tasks: ['writing on the blackboard', 'answering questions', 'marking essays'] },
      { title: 'researcher', room: 'office', slots: 1, start: h(9, 30), end: h(18), activity: 'doing research', at: 'desk', emoji: '🔬', tasks: ['writing a paper', 'reading journals'] },
      { title: 'college librarian', room: 'library', slots: 1, start: h(8, 30), end: h(17), activity: 'looking after the college library', at: 'bookshelf', emoji: '📚', tasks: ['shelving books', 'helping a student'] },
    ],
  },
  {
    kind: 'clinic', name: '{word} Clinic', doorRoom: 0, weight: 0.7,
    rooms: [
      { arena: 'waiting room', width: 8, floor: 'tile floor', objects: [['counter', 1, 0], ['bench', 4, 3], ['bench 2', 6, 3]] },
      { arena: 'surgery', width: 6, floor: 'tile floor', objects: ['desk', 'bed', 'sink'] },
      { arena: 'treatment room', width: 5, floor: 'tile floor', objects: ['bed', 'sink', ['filing cabinet', 4, 3]] },
    ],
    jobs: [
      { title: 'doctor', room: 'surgery', slots: 1, start: h(8, 30), end: h(17, 30), activity: 'seeing patients', at: 'desk', emoji: '🩺', tasks: ['examining a patient', 'writing a prescription', 'updating notes'] },
      { title: 'nurse', room: 'treatment room', slots: 2, start: h(8), end: h(16), activity: 'treating patients', at: 'bed', emoji: '💉', tasks: ['taking blood pressure', 'changing a dressing', 'restocking supplies'] },
      { title: 'receptionist', room: 'waiting room', slots: 1, start: h(8), end: h(17), activity: 'running the front desk', at: 'counter', emoji: '📋', tasks: ['booking appointments', 'answering the phone', 'greeting patients'] },
    ],
    visit: { room: 'waiting room', objects: ['bench', 'bench 2'] },
  },
  {
    kind: 'office', name: '{word} Insurance', doorRoom: 0, weight: 3,
    rooms: [
      { arena: 'office', width: 14, floor: 'carpet', objects: ['desk', 'desk 2', 'desk 3', 'desk 4', 'desk 5', ['desk 6', 1, 4], ['desk 7', 5, 4], ['desk 8', 9, 4], ['filing cabinet', 13, 0]] },
      { arena: 'meeting room', width: 6, floor: 'carpet', objects: [['meeting table', 2, 3]] },
    ],
    jobs: [
      { title: 'clerk', room: 'office', slots: 4, start: h(9), end: h(17), activity: 'working at the office', at: 'desk', emoji: '💼', tasks: ['answering emails', 'filing claims', 'calling a client', 'writing a report'] },
      { title: 'accountant', room: 'office', slots: 2, start: h(8, 30), end: h(17), activity: 'going through the accounts', at: 'filing cabinet', emoji: '📊', tasks: ['checking figures', 'preparing the quarterly report', 'filing receipts'] },
      { title: 'office manager', room: 'meeting room', slots: 1, start: h(8, 30), end: h(17, 30), activity: 'managing the office', at: 'meeting table', emoji: '🗓️', tasks: ['chairing a meeting', 'planning the week', 'talking to a client'] },
    ],
  },
  {
    kind: 'townhall', name: 'Town Hall', doorRoom: 1, weight: 0,
    rooms: [
      { arena: 'office', width: 9, floor: 'carpet', objects: ['desk', 'desk 2', 'desk 3', ['filing cabinet', 8, 0]] },
      { arena: 'council chamber', width: 9, floor: 'carpet', objects: [['meeting table', 4, 3]] },
    ],
    jobs: [
      { title: 'town clerk', room: 'office', slots: 3, start: h(8, 30), end: h(16, 30), activity: 'working at the town hall', at: 'desk', emoji: '🏛️', tasks: ['filing permits', 'answering letters', 'updating the town records'] },
      { title: 'mayor', room: 'council chamber', slots: 1, start: h(9), end: h(18), activity: 'running the town', at: 'meeting table', emoji: '🏛️', tasks: ['chairing a council meeting', 'reading reports', 'meeting residents'] },
    ],
  },
  {
    kind: 'workshop', name: '{word} Workshop', doorRoom: 0, weight: 1.2,
    rooms: [{ arena: 'workshop', width: 11, floor: 'wood floor', objects: ['table', 'table 2', 'shelf', 'shelf 2', ['table 3', 4, 4]] }],
    jobs: [
      { title: 'carpenter', room: 'workshop', slots: 3, start: h(7, 30), end: h(16), activity: 'making furniture', at: 'table', emoji: '🪚', tasks: ['sawing planks', 'sanding a chair', 'varnishing a table', 'sweeping up shavings'] },
    ],
  },
  {
    kind: 'studio', name: '{word} Art Studio', doorRoom: 0, weight: 0.4,
    rooms: [{ arena: 'studio', width: 10, floor: 'wood floor', objects: ['easel', 'easel 2', 'easel 3', ['table', 4, 4], ['easel 4', 8, 4]] }],
    jobs: [
      { title: 'painter', room: 'studio', slots: 2, start: h(10), end: h(18), activity: 'painting in the studio', at: 'easel', emoji: '🎨', tasks: ['mixing colours', 'stretching a canvas', 'teaching an art class'] },
    ],
    visit: { room: 'studio', objects: ['easel 2', 'easel 3', 'easel 4', 'table'] },
  },
  {
    kind: 'bookshop', name: '{word} Books', doorRoom: 0, weight: 0.5,
    rooms: [{ arena: 'shop', width: 10, floor: 'carpet', objects: ['bookshelf', 'bookshelf 2', 'bookshelf 3', ['counter', 1, 5], ['bookshelf 4', 7, 4]] }],
    jobs: [
      { title: 'bookseller', room: 'shop', slots: 2, start: h(9, 30), end: h(18), activity: 'selling books', at: 'counter', emoji: '📕', tasks: ['recommending a book', 'unpacking new stock', 'arranging the window display'] },
    ],
    visit: { room: 'shop', objects: ['bookshelf', 'bookshelf 2', 'bookshelf 3'] },
  },
  {
    kind: 'music', name: '{word} Music School', doorRoom: 0, weight: 0.3,
    rooms: [{ arena: 'music room', width: 10, floor: 'wood floor', objects: ['piano', ['piano 2', 6, 0], ['bench', 2, 4], ['bench 2', 6, 4]] }],
    jobs: [
      { title: 'music teacher', room: 'music room', slots: 2, start: h(12), end: h(20), activity: 'giving music lessons', at: 'piano', emoji: '🎼', tasks: ['teaching scales', 'accompanying a singer', 'tuning the piano'] },
    ],
    visit: { room: 'music room', objects: ['bench', 'bench 2', 'piano 2'] },
  },
];

export const PARK_JOB: Job = {
  title: 'park keeper', room: 'park', slots: 2, start: h(7), end: h(15, 30), activity: 'looking after the park', at: 'garden', emoji: '🌳', tasks: ['weeding the flower beds', 'raking leaves', 'cleaning the fountain', 'mending a bench'],
};

/** Children this old or younger go to school; then college up to COLLEGE_AGE_MAX; adults work to RETIRE_AGE. */
export const SCHOOL_AGE_MIN = 6;
export const SCHOOL_AGE_MAX = 17;
export const COLLEGE_AGE_MAX = 21;
export const RETIRE_AGE = 67;
/** Towns of this many people or more have workplaces with twice the staff (three times at twice this), so they need fewer buildings. */
export const PEOPLE_PER_STAFF_SCALE = 700;
/** Pupils a classroom holds, students a lecture hall holds. */
export const PUPILS_PER_CLASSROOM = 24;
export const STUDENTS_PER_COLLEGE = 60;
