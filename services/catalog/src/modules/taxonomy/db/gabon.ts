/**
 * Gabon's nine provinces with their main towns; the capital of each province comes first and
 * is marked major, as are the country's largest towns.
 */
export const gabonProvinces: ReadonlyArray<{ name: string; cities: ReadonlyArray<{ name: string; major?: boolean }> }> =
  [
    {
      name: 'Estuaire',
      cities: [
        { name: 'Libreville', major: true },
        { name: 'Owendo', major: true },
        { name: 'Akanda', major: true },
        { name: 'Ntoum' },
        { name: 'Kango' },
        { name: 'Cocobeach' },
      ],
    },
    {
      name: 'Haut-Ogooué',
      cities: [
        { name: 'Franceville', major: true },
        { name: 'Moanda', major: true },
        { name: 'Mounana' },
        { name: 'Okondja' },
        { name: 'Léconi' },
        { name: 'Bongoville' },
      ],
    },
    { name: 'Moyen-Ogooué', cities: [{ name: 'Lambaréné', major: true }, { name: 'Ndjolé' }] },
    {
      name: 'Ngounié',
      cities: [
        { name: 'Mouila', major: true },
        { name: 'Ndendé' },
        { name: 'Fougamou' },
        { name: 'Mbigou' },
        { name: 'Mimongo' },
      ],
    },
    { name: 'Nyanga', cities: [{ name: 'Tchibanga', major: true }, { name: 'Mayumba' }, { name: 'Moabi' }] },
    {
      name: 'Ogooué-Ivindo',
      cities: [{ name: 'Makokou', major: true }, { name: 'Booué' }, { name: 'Mékambo' }, { name: 'Ovan' }],
    },
    {
      name: 'Ogooué-Lolo',
      cities: [{ name: 'Koulamoutou', major: true }, { name: 'Lastoursville' }, { name: 'Pana' }],
    },
    {
      name: 'Ogooué-Maritime',
      cities: [{ name: 'Port-Gentil', major: true }, { name: 'Omboué' }, { name: 'Gamba' }],
    },
    {
      name: 'Woleu-Ntem',
      cities: [
        { name: 'Oyem', major: true },
        { name: 'Bitam', major: true },
        { name: 'Mitzic' },
        { name: 'Minvoul' },
        { name: 'Médouneu' },
      ],
    },
  ];
